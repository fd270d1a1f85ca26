"""The shipped recipe (deploy/): nginx accepts the site, the units and the environment
file say what the README and docs/operations.md promise. ``make deploy-check`` runs them."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from deploy import recipe


def site(tmp_path: Path, upstreams: tuple[int, ...] = (18001, 18002), https_port: int = 18443) -> Path:
    cert, key = recipe.self_signed_certificate(tmp_path)
    text = recipe.render_site(
        upstreams=list(upstreams), https_port=https_port, http_port=18080, cert=cert, key=key,
        logs=tmp_path / "nginx" / "logs",
    )  # fmt: skip
    return recipe.render_nginx(tmp_path / "nginx", text)


def _nginx() -> str:
    nginx = shutil.which("nginx") or next(
        (path for path in ("/usr/sbin/nginx", "/sbin/nginx") if Path(path).exists()), None
    )
    if nginx is None:
        pytest.skip("nginx is not installed: `sudo apt-get install nginx` (.ci/run installs it)")
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed: it makes the test certificate")
    return nginx


def test_nginx_accepts_the_shipped_site(tmp_path: Path) -> None:
    nginx = _nginx()
    conf = site(tmp_path)
    result = subprocess.run(recipe.nginx_argv(nginx, conf, "-t"), capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert "syntax is ok" in result.stderr


def test_the_access_log_cuts_a_device_links_secret(tmp_path: Path) -> None:
    """The shipped site in a real nginx, in front of a stand-in upstream: a device link's
    page and socket paths are logged with the token cut, and no Referer is written."""
    import http.client
    import http.server
    import ssl
    import threading

    from bench.servers import free_port, wait_port

    nginx = _nginx()

    class Upstream(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: object) -> None:
            pass

    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    https_port = free_port()
    conf = site(tmp_path, upstreams=(upstream.server_address[1],), https_port=https_port)
    proc = subprocess.Popen(recipe.nginx_argv(nginx, conf), stderr=subprocess.DEVNULL)
    token = "zq" + "7f" * 31
    try:
        wait_port(https_port)
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        for path in (f"/r/room-one/device/{token}/", f"/ws/r/room-one/device/{token}/?x=1", "/r/room-one/"):
            conn = http.client.HTTPSConnection("127.0.0.1", https_port, context=context, timeout=10)
            referer = f"https://{recipe.HOST_NAME}/r/room-one/device/{token}/"
            conn.request("GET", path, headers={"Host": recipe.HOST_NAME, "Referer": referer})
            assert conn.getresponse().status == 200
            conn.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        upstream.shutdown()
    logged = (tmp_path / "nginx" / "logs" / "wordrooms.access.log").read_text()
    assert logged.count('"GET /r/room-one/device/(token)/ HTTP/1.1" 200') == 1, logged
    assert '"GET /ws/r/room-one/device/(token)/?x=1 HTTP/1.1" 200' in logged, logged
    assert '"GET /r/room-one/ HTTP/1.1" 200' in logged, logged
    assert token not in logged


def test_the_proxy_sets_the_client_address_and_keeps_metrics_private() -> None:
    text = recipe.NGINX_SITE.read_text()
    directives = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    directives = [line for line in directives if line]
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in directives
    assert not any("$proxy_add_x_forwarded_for" in line for line in directives)
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in directives
    assert "proxy_set_header Host $host;" in directives
    # proxy_set_header only at server level: one in a location would drop all the others.
    for block in re.findall(r"location [^{]+\{([^}]*)\}", text):
        assert "proxy_set_header" not in block
    assert re.search(r"location /metrics \{\s*deny all;\s*\}", text)


def test_a_restarting_process_is_never_marked_down_by_the_proxy() -> None:
    """A rolling restart: nginx must not keep a process that was restarting out of the
    upstream once it is back (max_fails=1 gave every socket of the next process 502 "no
    live upstreams" for up to a minute). ``make deploy-check`` runs the restart itself."""
    text = recipe.NGINX_SITE.read_text()
    servers = re.findall(r"^\s*server 127\.0\.0\.1:\d+(.*);$", text, flags=re.MULTILINE)
    assert servers and all(re.fullmatch(r"\s*max_fails=0", options) for options in servers), servers
    assert re.search(r"^\s*proxy_next_upstream error timeout;", text, flags=re.MULTILINE)


def test_the_units_run_daphne_behind_the_proxy_and_one_clock() -> None:
    web = recipe.unit_command(recipe.WEB_UNIT, "8001")
    # -v 0: Daphne writes no access log of its own (a device link's path holds its secret).
    assert web.argv[1:] == [
        "-m", "daphne", "-v", "0", "--proxy-headers", "-b", "127.0.0.1", "-p", "8001",
        "config.asgi:application",
    ]  # fmt: skip
    assert web.env == {"GAME_CLOCK": "false"}
    assert recipe.unit_command(recipe.CLOCK_UNIT).argv[1:] == ["manage.py", "clock"]
    example = recipe.env_file()
    assert "GAME_CLOCK" not in example  # it would override the web unit's GAME_CLOCK=false
    assert recipe.service_env(recipe.WEB_UNIT, example)["GAME_CLOCK"] == "false"


def test_the_environment_file_names_every_setting() -> None:
    settings = (recipe.ROOT / "config" / "settings.py").read_text()
    names = set(re.findall(r'_env_\w+\("([A-Z_]+)"', settings))
    names |= set(re.findall(r'os\.environ\.get\("([A-Z_]+)"', settings))
    names -= {"TEST_DB_NAME", "GAME_CLOCK"}  # tests only; set by the units themselves
    names |= {"DATABASE_URL"}  # read by dj_database_url
    missing = names - set(recipe.env_file())
    assert not missing, f"deploy/wordrooms.env.example does not name {sorted(missing)}"


def test_the_environment_file_passes_check_deploy() -> None:
    """The example environment, with a real key, is clean for Django's deployment check."""
    import os
    import sys

    keep = {"PATH", "HOME", "LANG"}
    env = {key: value for key, value in os.environ.items() if key in keep}
    env.update(recipe.env_file())
    env.update(SECRET_KEY="k" * 20 + "-a-long-random-secret-for-this-test-only-0123456789")
    env.update(DJANGO_SETTINGS_MODULE="config.settings")
    command = [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    result = subprocess.run(command, cwd=recipe.ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def _documented(block_after: str) -> list[str]:
    """The commands of the first ``sh`` block after ``block_after`` in docs/operations.md."""
    text = (recipe.ROOT / "docs" / "operations.md").read_text()
    block = text[text.index(block_after) :].split("```sh\n", 1)[1].split("```", 1)[0]
    return [line.strip() for line in block.splitlines() if line.strip()]


def test_the_documented_tls_steps_get_the_certificate_before_nginx_reads_the_site(tmp_path: Path) -> None:
    steps = _documented("Proxy and TLS")
    order = [
        next(i for i, step in enumerate(steps) if word in step) for word in ("certbot", "ln -s", "nginx -t")
    ]
    assert order == sorted(order), steps
    # Why: the shipped site without its certificate fails `nginx -t`.
    nginx = _nginx()
    conf = site(tmp_path)
    (tmp_path / "cert.pem").unlink()
    result = subprocess.run(recipe.nginx_argv(nginx, conf, "-t"), capture_output=True, text=True, timeout=30)
    assert result.returncode != 0 and "cert.pem" in result.stderr


def test_the_documented_install_makes_the_static_folder_for_the_service_user() -> None:
    steps = _documented("Database and static files")
    static_root = recipe.env_file()["STATIC_ROOT"]
    made = next(i for i, step in enumerate(steps) if step.startswith("sudo install -d -o wordrooms"))
    assert steps[made].endswith(static_root)
    assert made < next(i for i, step in enumerate(steps) if "collectstatic" in step)
