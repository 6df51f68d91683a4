"""platform/nginx.conf in front of both gunicorn services: pages go to the web service,
the event streams to the stream service, unbuffered (each line reaches the bot, or the
page's EventSource, at once)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from accounts import services as account_services
from config.tests.servers import free_port, wait_until_listening
from games import services

BASE_DIR = Path(__file__).resolve().parents[2]
PASSWORD = "nginx-test-password-4711"


def _wait_for_port(port: int, process: subprocess.Popen[bytes]) -> None:
    wait_until_listening(process, port)


def _start(command: list[str], env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        command, cwd=BASE_DIR, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    _wait_for_port(port, process)
    return process


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(30)


@contextlib.contextmanager
def serving(extra_env: dict[str, str]) -> Iterator[dict[str, object]]:
    """nginx (platform/nginx.conf) → gunicorn web + stream, with `extra_env` for Django."""
    if shutil.which("nginx") is None:
        if os.environ.get("CI_REQUIRE_SERVICES") == "1":
            pytest.fail("nginx is not installed (.ci/run installs Debian's nginx-light)")
        pytest.skip("nginx is not installed")
    ports = {name: free_port() for name in ("web", "stream", "proxy")}
    env = {
        **os.environ,
        "DATABASE_NAME": str(connection.settings_dict["NAME"]),  # the test database
        "STREAM_MAX_SECONDS": "3",
        "STREAM_KEEPALIVE_SECONDS": "1",
        "LOG_LEVEL": "WARNING",
        "TRUSTED_PROXIES": "1",  # as platform/env.example: nginx in front
        **extra_env,
    }
    gunicorn = [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--config"]
    web = _start(
        [*gunicorn, str(BASE_DIR / "platform" / "gunicorn.conf.py")],
        {
            **env,
            "GUNICORN_BIND": f"127.0.0.1:{ports['web']}",
            "GUNICORN_WORKERS": env.get("GUNICORN_WORKERS", "2"),
        },
        ports["web"],
    )
    stream = _start(
        [*gunicorn, str(BASE_DIR / "platform" / "gunicorn-stream.conf.py")],
        {
            **env,
            "GUNICORN_BIND": f"127.0.0.1:{ports['stream']}",
            "GUNICORN_THREADS": "4",
            # The streams' total must leave a thread free (checked when it starts).
            "STREAM_MAX_TOTAL": "3",
            "STREAM_RESERVED_FOR_BOTS": "1",
        },
        ports["stream"],
    )
    run = Path(tempfile.mkdtemp(prefix="adaptoid-nginx-test-"))
    conf = (BASE_DIR / "platform" / "nginx.conf").read_text()
    conf = (
        conf.replace("web:8000", f"127.0.0.1:{ports['web']}")
        .replace("stream:8001", f"127.0.0.1:{ports['stream']}")
        .replace("listen 80;", f"listen 127.0.0.1:{ports['proxy']};")
        .replace("/etc/nginx/adaptoid-locations.conf", str(BASE_DIR / "platform" / "nginx-locations.conf"))
        .replace("/etc/nginx/adaptoid-http.conf", str(BASE_DIR / "platform" / "nginx-http.conf"))
        .replace("access_log /dev/stdout;", "access_log off;")
        .replace("error_log /dev/stderr warn;", f"error_log {run}/error.log warn;")
        .replace(
            "http {",
            "http {\n"
            + "".join(f"    {kind}_temp_path {run}/{kind};\n"
                      for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")),
        )
    )  # fmt: skip
    (run / "nginx.conf").write_text(conf)
    nginx = _start(
        ["nginx", "-c", str(run / "nginx.conf"), "-g", f"pid {run}/nginx.pid; daemon off;"],
        env,
        ports["proxy"],
    )
    try:
        yield {"port": ports["proxy"], "stream": stream}
    finally:
        for process in (nginx, stream, web):
            _stop(process)


@pytest.fixture
def site() -> Iterator[dict[str, object]]:
    with serving({}) as served:
        yield served


def _request(
    port: int,
    path: str,
    *,
    method: str = "GET",
    token: str | None = None,
    body: dict[str, object] | None = None,
    headers: dict[str, str] | None = None,
) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = {"Host": "127.0.0.1", **(headers or {})}
    if token:
        sent["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=sent)
    return conn.getresponse()


def _get(port: int, path: str, token: str | None = None) -> http.client.HTTPResponse:
    return _request(port, path, token=token)


@pytest.mark.django_db(transaction=True)
def test_pages_to_web_and_the_stream_to_its_service_unbuffered(site: dict[str, object]) -> None:
    port = int(site["port"])  # type: ignore[call-overload]
    white = account_services.register_account(username="proxy-white", password=PASSWORD)
    black = account_services.register_account(username="proxy-black", password=PASSWORD)
    game = services.start_game(white=white, black=black, rated=False)
    token = account_services.create_token(user=white)

    assert _get(port, "/api/v1/schema").status == 200

    started = time.monotonic()
    answer = _get(port, "/api/v1/stream/events", token)
    assert answer.status == 200
    assert answer.getheader("Content-Type", "").startswith("application/x-ndjson")
    first = answer.readline()
    first_at = time.monotonic() - started
    rest = answer.read()
    ended_at = time.monotonic() - started
    assert b'"game_start"' in first and f'"id":{game.pk}'.encode() in first
    # Unbuffered: the first line came at once, not with the end of the 3-second stream.
    assert ended_at >= 2.5 and first_at < 1.5, (first_at, ended_at)
    assert rest.count(b"\n") >= 1  # keep-alive lines

    # The pages' Server-Sent Events, for a logged-in session: routed and unbuffered alike.
    browser = Client()
    browser.force_login(black)
    session = {
        "Cookie": f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    }
    started = time.monotonic()
    answer = _request(
        port, "/api/v1/stream/page-events", headers={**session, "Accept": "text/event-stream"}
    )
    assert answer.status == 200
    assert answer.getheader("Content-Type", "").startswith("text/event-stream")
    first = answer.readline()
    first_at = time.monotonic() - started
    rest = answer.read()
    ended_at = time.monotonic() - started
    assert first == b"retry: 1000\n" and b'"type":"ready"' in rest
    assert ended_at >= 2.5 and first_at < 1.5, (first_at, ended_at)
    assert b": keep-alive" in rest

    # The stream has a service of its own: without it, the stream fails, pages do not.
    _stop(site["stream"])  # type: ignore[arg-type]
    assert _get(port, "/api/v1/stream/events", token).status == 502
    refused = _request(port, "/api/v1/stream/page-events", headers=session)
    assert refused.status == 502  # the page's EventSource fails: it polls (web/live.js)
    assert _get(port, "/api/v1/schema").status == 200


@pytest.mark.django_db(transaction=True)
def test_a_new_x_forwarded_for_per_request_does_not_escape_the_token_throttle() -> None:
    account_services.register_account(username="proxy-brute", password=PASSWORD)
    # One web worker: the embedded default's cache is per process (CI: Redis, shared).
    with serving({"THROTTLE_TOKEN": "3/minute", "GUNICORN_WORKERS": "1"}) as served:
        port = int(served["port"])  # type: ignore[call-overload]
        statuses = []
        for attempt in range(6):
            answer = _request(
                port,
                "/api/v1/auth/token",
                method="POST",
                body={"username": "proxy-brute", "password": f"wrong-{attempt}"},
                headers={"X-Forwarded-For": f"203.0.113.{attempt + 1}"},
            )
            answer.read()
            statuses.append(answer.status)
    # nginx replaces the header with the connection's address: one client, one count.
    assert statuses == [401, 401, 401, 429, 429, 429], statuses


@pytest.mark.django_db(transaction=True)
def test_the_front_proxys_https_and_the_clients_port_reach_django() -> None:
    white = account_services.register_account(username="proxy-w", password=PASSWORD)
    black = account_services.register_account(username="proxy-b", password=PASSWORD)
    for _ in range(2):
        services.start_game(white=white, black=black, rated=False)
    secure = {"SECURE_SSL_REDIRECT": "1", "SECURE_PROXY_SSL_HEADER": "1"}
    with serving(secure) as served:
        port = int(served["port"])  # type: ignore[call-overload]
        host = {"Host": f"127.0.0.1:{port}"}
        # A TLS terminator in front says https: served, not redirected again and again.
        answer = _request(
            port, "/api/v1/games?page_size=1", headers={**host, "X-Forwarded-Proto": "https"}
        )
        page = json.loads(answer.read())
        assert answer.status == 200
        # The port the client used is kept in the links Django writes.
        assert page["next"].startswith(f"https://127.0.0.1:{port}/api/v1/games?"), page["next"]
        # Plain HTTP with nothing in front: redirected to https once.
        answer = _request(port, "/api/v1/games", headers=host)
        answer.read()
        assert answer.status == 301
        assert answer.getheader("Location") == f"https://127.0.0.1:{port}/api/v1/games"
