"""The site's clock as a process of its own: ``python manage.py clock`` (one per site).

Deadlines, AI teammates, presence healing and the hourly purge (rooms and expired
sessions), for every Daphne process, which then run with ``GAME_CLOCK=false``. SIGTERM
or Ctrl-C lets the pass under way finish, then exits 0. See ``rooms/clock.py``.
"""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from prometheus_client import start_http_server

from rooms import clock, deployment


class Command(BaseCommand):
    help = "Run the game clock (deadlines, bots, presence, purge) for the whole site until SIGTERM."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--poll", type=float, default=clock.POLL_EVERY, help="seconds between passes when idle"
        )
        parser.add_argument(
            "--metrics-port",
            type=int,
            default=0,
            help="with METRICS=true, serve the clock's Prometheus metrics on 127.0.0.1:PORT",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        deployment.check_at_start()  # its bots' moves would reach another deployment's sockets
        stop = threading.Event()

        def request_stop(signum: int, frame: Any) -> None:
            stop.set()

        if settings.METRICS and options["metrics_port"]:
            # Loopback only: like the web processes' /metrics, never reachable from outside.
            start_http_server(options["metrics_port"], addr="127.0.0.1")
        signal.signal(signal.SIGTERM, request_stop)
        signal.signal(signal.SIGINT, request_stop)
        self.stdout.write(f"clock running (idle poll every {options['poll']:g} s)")
        self.stdout.flush()
        clock.run(stop, options["poll"])
        self.stdout.write("clock stopped")
