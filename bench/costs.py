"""Measure what an action costs: queries, view time, and bytes pushed to each seat.

    make bench                             # python -m bench.costs, on the configured database

The live side (many sockets, a crowd of rooms, the bare Channels floor) is
``make loadtest`` (bench/loadtest.py). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from codenames.game import GAME  # noqa: E402
from decrypto.game import GAME as DECRYPTO  # noqa: E402
from rooms import changes, services  # noqa: E402
from rooms.models import Room  # noqa: E402
from rooms.patch import PatchCache  # noqa: E402
from rooms.state import load_snapshot, room_state  # noqa: E402

SEATS = [("rosa", "red", "spymaster"), ("rui", "red", "operative"), ("bea", "blue", "spymaster"),
         ("bo", "blue", "operative"), ("sam", "", "spectator")]  # fmt: skip


def _table(slug: str) -> None:
    for name, team, role in SEATS:
        services.room_join(slug=slug, uid=f"{slug}-{name}", name=name)
        if role != "spectator":
            services.room_sit(slug=slug, uid=f"{slug}-{name}", team=team, role=role)


def _act(slug: str, name: str, message: dict[str, Any]) -> int:
    with CaptureQueriesContext(connection) as queries:
        with changes.locked_room(slug) as room:
            GAME.act(room, room.players.get(name=name), message)
    return len(queries)


class Costs:
    """The cost of each game's actions: queries, bytes per push, view time."""

    def __init__(self, out: Any = print) -> None:
        self.out = out

    def run(self, games: int) -> None:
        self.costs(games)
        self.decrypto_costs(games)
        self.log_costs(max(1, min(games, 5)))

    def log_costs(self, games: int) -> None:
        """What every game kept costs: the move log's rows and bytes per finished game
        (bots play whole games), beside the game's own saved state."""
        from bots import play as bot_play
        from bots import seats
        from rooms import play
        from rooms.models import GameMove

        teams = {"codenames": [("red", "spymaster"), ("red", "operative"), ("blue", "spymaster"),
                               ("blue", "operative")],
                 "decrypto": [("white", "player")] * 2 + [("black", "player")] * 2}  # fmt: skip
        for kind, seated in teams.items():
            rows, payload, stored, state = [], [], [], []
            for i in range(games):
                slug = f"bench-log-{kind}-{i}-{time.time_ns() % 10**9}"
                services.room_join(slug=slug, uid="host", name="Host", game=kind, seat="watch")
                for team, role in seated:
                    seats.add_bot(slug=slug, uid="host", team=team, role=role)
                with changes.locked_room(slug) as room:
                    players = changes.room_players(room)
                    play.act(room, players, next(p for p in players if p.bot), {"action": "start_game"})
                later = time.time() + 3600  # every bot's think time has passed
                while bot_play.step(later):
                    pass
                room = Room.objects.get(slug=slug)
                moves = list(GameMove.objects.filter(room=room))
                rows.append(len(moves))
                payload.append(sum(len(json.dumps(m.action, separators=(",", ":"))) for m in moves))
                record = (GAME if kind == "codenames" else DECRYPTO).record.objects.get(room=room)
                state.append(len(json.dumps(record.state, separators=(",", ":"))))
                if connection.vendor == "postgresql":
                    with connection.cursor() as cursor:
                        table = GameMove._meta.db_table
                        cursor.execute(
                            f"SELECT SUM(pg_column_size(m.*)) FROM {table} m WHERE room_id = %s", [room.pk]
                        )
                        stored.append(int(cursor.fetchone()[0]))
                room.delete()
            self.out(f"{kind}: move log per finished bot game: {statistics.mean(rows):.0f} rows, "
                     f"{statistics.mean(payload) / 1024:.1f} KB of JSON (the deal's state included), "
                     f"the game's own final state {statistics.mean(state) / 1024:.1f} KB")  # fmt: skip
            if stored:
                kept = statistics.mean(stored) / 1024
                self.out(
                    f"{kind}: move log rows as PostgreSQL stores them: {kept:.1f} KB a game (before indexes)"
                )

    def costs(self, games: int) -> None:
        slug = "bench-costs"
        Room.objects.filter(slug=slug).delete()
        _table(slug)
        action_queries: dict[str, list[int]] = {"start_game": [], "give_clue": [], "confirm": []}
        view_queries: list[int] = []
        view_ms: list[float] = []
        sizes: dict[str, list[int]] = {"spymaster": [], "operative": [], "spectator": []}
        patch_sizes: dict[str, list[int]] = {}
        for _ in range(games):
            action_queries["start_game"].append(_act(slug, "rosa", {"action": "start_game", "confirm": True}))
            self._patch_sizes(slug, patch_sizes)
            state = Room.objects.get(slug=slug).codenames_games.order_by("-number").first().state  # type: ignore[union-attr]
            spymaster = "rosa" if state["team"] == "red" else "bea"
            operative = "rui" if state["team"] == "red" else "bo"
            action_queries["give_clue"].append(
                _act(
                    slug,
                    spymaster,
                    {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 2},
                )
            )
            state = Room.objects.get(slug=slug).codenames_games.order_by("-number").first().state  # type: ignore[union-attr]
            own = [i for i, who in enumerate(state["key"]) if who == state["team"]]
            before = load_snapshot(slug)
            _act(slug, operative, {"action": "propose", "turn": state["turn"], "position": own[0]})
            self._record_patch(before, load_snapshot(slug), "propose", patch_sizes)
            before = load_snapshot(slug)
            action_queries["confirm"].append(
                _act(slug, operative, {"action": "confirm", "turn": state["turn"], "position": own[0]})
            )
            self._record_patch(before, load_snapshot(slug), "confirm", patch_sizes)
            for seat, name in (("spymaster", "rosa"), ("operative", "rui"), ("spectator", "sam")):
                started = time.perf_counter()
                with CaptureQueriesContext(connection) as queries:
                    payload = room_state(slug=slug, uid=f"{slug}-{name}")
                view_ms.append((time.perf_counter() - started) * 1000)
                view_queries.append(len(queries))
                sizes[seat].append(
                    len(json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode())
                )
        Room.objects.filter(slug=slug).delete()

        out = self.out
        out(f"database: {connection.vendor}; {games} games")
        for name, counts in action_queries.items():
            out(f"queries per {name:<10} median {statistics.median(counts):>4}  max {max(counts)}")
        out(f"queries per state view   median {statistics.median(view_queries):>4}  max {max(view_queries)}")
        out(
            f"state view time          median {statistics.median(view_ms):.2f} ms  p95 {_p95(view_ms):.2f} ms"
        )
        for seat, values in sizes.items():
            out(
                f"bytes per whole state ({seat:<9}) median {statistics.median(values):>6.0f}"
                f"  max {max(values)}"
            )
        for what, values in sorted(patch_sizes.items()):
            out(f"bytes per patch ({what:<19}) median {statistics.median(values):>6.0f}  max {max(values)}")

    def _patch_sizes(self, slug: str, sizes: dict[str, list[int]]) -> None:
        """The give_clue move's patch per view, starting from the deal just made."""
        state = Room.objects.get(slug=slug).codenames_games.order_by("-number").first().state  # type: ignore[union-attr]
        spymaster = "rosa" if state["team"] == "red" else "bea"
        before = load_snapshot(slug)
        _act(slug, spymaster, {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 2})
        self._record_patch(before, load_snapshot(slug), "give_clue", sizes)
        _act(slug, "rosa", {"action": "start_game", "confirm": True})

    @staticmethod
    def _record_patch(
        before: dict[str, Any], after: dict[str, Any], what: str, sizes: dict[str, list[int]]
    ) -> None:
        patches = PatchCache(before, after)
        for key in after["views"]:
            sizes.setdefault(f"{what}, {key}", []).append(len(patches.message(key).encode()))

    def decrypto_costs(self, games: int) -> None:
        """Queries per Decrypto move and bytes per push for each of its distinct views."""
        slug = "bench-decrypto"
        Room.objects.filter(slug=slug).delete()
        names = [("wa", "white"), ("wb", "white"), ("ba", "black"), ("bb", "black"), ("sam", "")]
        for name, team in names:
            services.room_join(slug=slug, uid=f"{slug}-{name}", name=name, game="decrypto")
            if team:
                services.room_sit(slug=slug, uid=f"{slug}-{name}", team=team, role="player")

        def act(name: str, message: dict[str, Any]) -> int:
            with CaptureQueriesContext(connection) as queries:
                with changes.locked_room(slug) as room:
                    DECRYPTO.act(room, room.players.get(name=name), message)
            return len(queries)

        queries: list[int] = []
        sizes: dict[str, list[int]] = {"encryptor": [], "member": [], "spectator": []}
        for _ in range(games):
            act("wa", {"action": "start_game", "confirm": True})
            state = Room.objects.get(slug=slug).decrypto_games.order_by("-number").first().state  # type: ignore[union-attr]
            ids = dict(Room.objects.get(slug=slug).players.values_list("public_id", "name"))
            encryptor = ids[state["turns"]["white"]["encryptor"]]
            stamp = {"round": state["round"], "phase": state["phase"]}
            queries.append(
                act(encryptor, {"action": "submit_clues", **stamp, "clues": ["one", "two", "three"]})
            )
            member = next(n for n in ("wa", "wb") if n != encryptor)
            for seat, name in (("encryptor", encryptor), ("member", member), ("spectator", "sam")):
                payload = room_state(slug=slug, uid=f"{slug}-{name}")
                sizes[seat].append(
                    len(json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode())
                )
        Room.objects.filter(slug=slug).delete()
        out = self.out
        out(f"decrypto: queries per submit_clues  median {statistics.median(queries):>4}  max {max(queries)}")
        for seat, values in sizes.items():
            out(
                f"decrypto: bytes per push ({seat:<9}) median {statistics.median(values):>6.0f}"
                f"  max {max(values)}"
            )


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=Costs.__doc__)
    parser.add_argument("--games", type=int, default=20)
    Costs().run(parser.parse_args(argv).games)


if __name__ == "__main__":
    main()
