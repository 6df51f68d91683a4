"""platform/env.example (issue #14.13): as shipped it passes `manage.py check --deploy`
(with a real SECRET_KEY); with its "Local try" block uncommented a real gunicorn serves
http://127.0.0.1:8000 — pages, not a redirect to https, and a log-in form that works."""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

import pytest

from accounts import services as account_services
from config.tests.servers import free_port, wait_until_listening

BASE_DIR = Path(__file__).resolve().parents[2]
ENV_EXAMPLE = BASE_DIR / "platform" / "env.example"
SECRET = "x7!Qp2-a-long-random-secret-for-the-env-example-test-9f3Kd0Zr4LwT8bN1mV6c"
PASSWORD = "env-example-password-4711"


def _env_file(*, local_try: bool) -> dict[str, str]:
    """The file as docker compose reads it (later lines win), the block uncommented."""
    values: dict[str, str] = {}
    in_local_block = False
    for line in ENV_EXAMPLE.read_text().splitlines():
        if line.startswith("# --- Local try"):
            in_local_block = True
            continue
        if in_local_block and local_try and re.match(r"^# [A-Z_]+=", line):
            line = line[2:]
        if line and not line.startswith("#") and "=" in line:
            name, _, value = line.partition("=")
            values[name] = value
    return values


def test_the_local_try_block_exists_and_only_relaxes_https() -> None:
    shipped, local = _env_file(local_try=False), _env_file(local_try=True)
    changed = {name for name in local if local[name] != shipped.get(name)}
    assert changed == {
        "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
        "SECURE_HSTS_SECONDS", "CSRF_TRUSTED_ORIGINS", "SITE_URL",
    }  # fmt: skip
    assert "127.0.0.1" in shipped["ALLOWED_HOSTS"].split(",")


def test_the_shipped_file_passes_check_deploy() -> None:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        **_env_file(local_try=False),
        "SECRET_KEY": SECRET,  # the one value the file says to fill in
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.django_db(transaction=True)
def test_a_local_try_serves_plain_http_on_127_0_0_1() -> None:
    from django.db import connection

    account_services.register_account(username="local-try", password=PASSWORD)
    port = free_port()

    def serve(local_try: bool) -> subprocess.Popen[bytes]:
        env = {
            **os.environ,
            **_env_file(local_try=local_try),
            # The test's own services instead of the compose file's host names.
            "DATABASE_URL": os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR}/var/x",
            "DATABASE_NAME": str(connection.settings_dict["NAME"]),
            "GUNICORN_BIND": f"127.0.0.1:{port}",
            "GUNICORN_WORKERS": "1",
            "LOG_LEVEL": "WARNING",
        }
        if os.environ.get("REDIS_URL"):
            env["REDIS_URL"] = os.environ["REDIS_URL"]
        else:
            env.pop("REDIS_URL", None)
        env.pop("REDIS_CACHE_URL", None)
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi:application",
             "--config", str(BASE_DIR / "platform" / "gunicorn.conf.py")],
            cwd=BASE_DIR, env=env, start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_until_listening(server, port)
        return server

    def stop(server: subprocess.Popen[bytes]) -> None:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)

    def get(path: str) -> http.client.HTTPResponse:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", path, headers={"Host": "127.0.0.1:8000"})
        return conn.getresponse()

    # As shipped (production): plain HTTP is sent to https, which a local try lacks.
    server = serve(local_try=False)
    try:
        answer = get("/accounts/login/")
        answer.read()
        assert answer.status == 301, answer.status
    finally:
        stop(server)

    server = serve(local_try=True)
    try:
        page = get("/accounts/login/")
        html = page.read().decode()
        assert page.status == 200, page.status
        cookie = page.getheader("Set-Cookie", "")
        assert "csrftoken=" in cookie and "Secure" not in cookie, cookie
        csrf_cookie = re.search(r"csrftoken=([^;]+)", cookie).group(1)  # type: ignore[union-attr]
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)  # type: ignore[union-attr]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request(
            "POST", "/accounts/login/",
            body=urlencode({"username": "local-try", "password": PASSWORD,
                            "csrfmiddlewaretoken": token}),
            headers={"Host": "127.0.0.1:8000", "Origin": "http://127.0.0.1:8000",
                     "Cookie": f"csrftoken={csrf_cookie}",
                     "Content-Type": "application/x-www-form-urlencoded"},
        )  # fmt: skip
        answer = conn.getresponse()
        answer.read()
        # Signed in: redirected home with a session cookie a plain-HTTP browser keeps.
        assert answer.status == 302, answer.status
        session = answer.getheader("Set-Cookie", "")
        assert "sessionid=" in session and "Secure" not in session, session
    finally:
        stop(server)
