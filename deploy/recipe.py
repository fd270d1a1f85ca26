"""The shipped recipe files, rendered for a run on this machine.

``make deploy-check`` and the tests start nginx, Daphne and the clock from these very
files: the nginx site with its ports, listen addresses and certificate substituted, the
units' ``ExecStart`` with the install folder replaced by this checkout and ``%i`` by the
port, their ``Environment=`` lines, and the environment file. Nothing is written twice:
when a file changes shape so that a substitution no longer applies, rendering fails.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
NGINX_SITE = DEPLOY / "nginx" / "wordrooms.conf"
WEB_UNIT = DEPLOY / "systemd" / "wordrooms@.service"
CLOCK_UNIT = DEPLOY / "systemd" / "wordrooms-clock.service"
ENV_EXAMPLE = DEPLOY / "wordrooms.env.example"
HOST_NAME = "games.example.org"  # the example host name the files use


class RecipeChanged(Exception):
    """A shipped file no longer has the shape this renderer substitutes into."""


@dataclass
class Command:
    argv: list[str]
    cwd: Path
    env: dict[str, str] = field(default_factory=dict)


def unit_service(path: Path) -> dict[str, list[str]]:
    """The ``[Service]`` section of a unit: each key's values, in order."""
    values: dict[str, list[str]] = {}
    section = ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
            continue
        if section == "[Service]":
            key, _, value = line.partition("=")
            values.setdefault(key.strip(), []).append(value.strip())
    return values


def unit_command(path: Path, instance: str = "", root: Path = ROOT) -> Command:
    """The unit's ExecStart, run from ``root`` instead of its WorkingDirectory."""
    service = unit_service(path)
    try:
        workdir = service["WorkingDirectory"][0]
        (line,) = service["ExecStart"]
    except (KeyError, ValueError):
        raise RecipeChanged(f"{path.name}: one ExecStart and a WorkingDirectory expected") from None
    argv = [part.replace("%i", instance) for part in shlex.split(line)]
    argv = [str(root) + part[len(workdir) :] if part.startswith(workdir) else part for part in argv]
    env: dict[str, str] = {}
    for item in service.get("Environment", []):
        for pair in shlex.split(item):
            key, _, value = pair.partition("=")
            env[key] = value
    return Command(argv=argv, cwd=root, env=env)


def env_file(path: Path = ENV_EXAMPLE) -> dict[str, str]:
    """``KEY=value`` lines of an EnvironmentFile (comments and blank lines skipped)."""
    values: dict[str, str] = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            key, sep, value = line.partition("=")
            if not sep:
                raise RecipeChanged(f"{path.name}: not KEY=value: {line!r}")
            values[key.strip()] = value.strip()
    return values


def service_env(unit: Path, environment_file: dict[str, str]) -> dict[str, str]:
    """The environment systemd gives the unit: EnvironmentFile= overrides Environment=."""
    return {**unit_command(unit).env, **environment_file}


def _sub(pattern: str, replacement: str, text: str, what: str, count: int = 0) -> str:
    result, found = re.subn(pattern, replacement, text, count=count, flags=re.MULTILINE)
    if not found:
        raise RecipeChanged(f"{NGINX_SITE.name}: no {what} to substitute")
    return result


def render_site(
    *, upstreams: list[int], https_port: int, http_port: int, cert: Path, key: Path, logs: Path | None = None
) -> str:
    """The nginx site with this run's Daphne ports, loopback listeners and certificate
    (and its access log in ``logs``, when given)."""
    text = NGINX_SITE.read_text()
    servers = re.findall(r"^\s*server 127\.0\.0\.1:\d+(.*);$", text, flags=re.MULTILINE)
    if not servers:
        raise RecipeChanged(f"{NGINX_SITE.name}: no upstream server lines")
    options = servers[0]
    lines = "".join(f"    server 127.0.0.1:{port}{options};\n" for port in upstreams)
    text = _sub(r"^\s*server 127\.0\.0\.1:\d+.*;\n", "", text, "upstream server lines")
    text = _sub(r"^(\s*zone wordrooms [^;]+;\n)", r"\g<1>" + lines, text, "upstream zone line")
    text = _sub(r"^\s*listen \[::\]:\d+.*;\n", "", text, "IPv6 listen lines")
    text = _sub(r"listen 443 ssl", f"listen 127.0.0.1:{https_port} ssl", text, "TLS listener")
    text = _sub(r"listen 80;", f"listen 127.0.0.1:{http_port};", text, "HTTP listener")
    text = _sub(r"ssl_certificate \s*\S+;", f"ssl_certificate {cert};", text, "certificate")
    text = _sub(r"ssl_certificate_key \s*\S+;", f"ssl_certificate_key {key};", text, "certificate key")
    if logs is not None:
        text = _sub(r"access_log /var/log/nginx/(\S+) ", rf"access_log {logs}/\g<1> ", text, "access log")
    return text


def render_nginx(prefix: Path, site: str) -> Path:
    """A whole nginx.conf under ``prefix`` around ``site``: foreground, logs and temp files
    in ``prefix``, one worker (so round-robin alternates exactly). Returns its path."""
    import os

    (prefix / "logs").mkdir(parents=True, exist_ok=True)
    (prefix / "site.conf").write_text(site)
    user = "user root;\n" if os.geteuid() == 0 else ""
    temp = "".join(
        f"    {kind}_temp_path {prefix / (kind + '_temp')};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf = (
        f"{user}daemon off;\nworker_processes 1;\npid {prefix / 'nginx.pid'};\n"
        f"error_log {prefix / 'logs' / 'error.log'} warn;\n"
        "events { worker_connections 1024; }\n"
        "http {\n"
        "    log_format upstream '$remote_addr \"$request\" $status $upstream_addr';\n"
        f"    access_log {prefix / 'logs' / 'access.log'} upstream;\n"
        f"{temp}"
        f"    include {prefix / 'site.conf'};\n"
        "}\n"
    )
    path = prefix / "nginx.conf"
    path.write_text(conf)
    return path


def nginx_argv(nginx: str, conf: Path, *extra: str) -> list[str]:
    """nginx on ``conf``, everything (its first error log too) under the conf's folder."""
    prefix = conf.parent
    return [nginx, "-p", str(prefix), "-e", str(prefix / "logs" / "error.log"), "-c", str(conf), *extra]


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A throwaway certificate for the example host name (openssl)."""
    import subprocess

    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
         f"/CN={HOST_NAME}", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key
