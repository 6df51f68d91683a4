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
import ssl
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
def serving(extra_env: dict[str, str], real_ip_from: str = "") -> Iterator[dict[str, object]]:
    """nginx (platform/nginx.conf) → gunicorn web + stream, with `extra_env` for Django;
    `real_ip_from` is NGINX_REAL_IP_FROM (the proxies in front of nginx), rendered by the
    shipped platform/nginx-real-ip.sh as the nginx image runs it."""
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
    subprocess.run(
        ["sh", str(BASE_DIR / "platform" / "nginx-real-ip.sh")],
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "NGINX_REAL_IP_FROM": real_ip_from,
             "ADAPTOID_REAL_IP_CONF": str(run / "real-ip.conf")},
        check=True,
    )  # fmt: skip
    conf = (BASE_DIR / "platform" / "nginx.conf").read_text()
    conf = (
        conf.replace("web:8000", f"127.0.0.1:{ports['web']}")
        .replace("stream:8001", f"127.0.0.1:{ports['stream']}")
        .replace("listen 80;", f"listen 127.0.0.1:{ports['proxy']};")
        .replace("/etc/nginx/adaptoid-locations.conf", str(BASE_DIR / "platform" / "nginx-locations.conf"))
        .replace("/etc/nginx/adaptoid-http.conf", str(BASE_DIR / "platform" / "nginx-http.conf"))
        .replace("/etc/nginx/adaptoid-real-ip.conf", str(run / "real-ip.conf"))
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


@contextlib.contextmanager
def tls_terminator(upstream_port: int) -> Iterator[tuple[int, Path]]:
    """A second nginx as the TLS terminator of a real deployment (on the same host) in
    front of `upstream_port`: it speaks HTTPS with a self-signed certificate made here and
    appends the client's address to X-Forwarded-For, as such proxies do.  Yields its port
    and the certificate (for the clients to verify)."""
    run = Path(tempfile.mkdtemp(prefix="adaptoid-tls-test-"))
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(run / "key.pem"), "-out", str(run / "cert.pem"),
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    port = free_port()
    temp_paths = "".join(
        f"    {kind}_temp_path {run}/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (run / "nginx.conf").write_text(
        f"""worker_processes 1;
events {{ worker_connections 64; }}
http {{
    access_log off;
    error_log {run}/error.log warn;
{temp_paths}    server {{
        listen 127.0.0.1:{port} ssl;
        ssl_certificate {run}/cert.pem;
        ssl_certificate_key {run}/key.pem;
        location / {{
            proxy_pass http://127.0.0.1:{upstream_port};
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto https;
        }}
    }}
}}
"""
    )
    terminator = _start(
        ["nginx", "-c", str(run / "nginx.conf"), "-g", f"pid {run}/nginx.pid; daemon off;"],
        dict(os.environ),
        port,
    )
    try:
        yield port, run / "cert.pem"
    finally:
        _stop(terminator)


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


def _token_from(
    address: str, port: int, password: str, *, tls: Path | None, forwarded: str | None = None
) -> str:
    """POST /api/v1/auth/token for "proxied-owner" from the loopback `address`: over
    HTTPS (verified against `tls`) to the terminator, or plain to the shipped nginx;
    the answer's code ("token" when one was issued)."""
    if tls is not None:
        context = ssl.create_default_context(cafile=str(tls))
        conn: http.client.HTTPConnection = http.client.HTTPSConnection(
            "127.0.0.1", port, timeout=30, context=context, source_address=(address, 0)
        )
    else:
        conn = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=30, source_address=(address, 0)
        )
    headers = {"Host": "127.0.0.1", "Content-Type": "application/json"}
    if forwarded:
        headers["X-Forwarded-For"] = forwarded
    body = json.dumps({"username": "proxied-owner", "password": password})
    conn.request("POST", "/api/v1/auth/token", body=body, headers=headers)
    answer = json.loads(conn.getresponse().read())
    conn.close()
    return "token" if "token" in answer else str(answer["code"])


@pytest.mark.django_db(transaction=True)
def test_behind_a_tls_terminator_two_clients_are_two_addresses() -> None:
    """TLS terminator → the shipped nginx (NGINX_REAL_IP_FROM: the terminator) → gunicorn:
    two clients (127.0.0.2 and 127.0.0.3) get a lockout and a rate limit each; what a
    client writes in X-Forwarded-For changes nothing."""
    account_services.register_account(username="proxied-owner", password=PASSWORD)
    django_env = {
        "AXES_FAILURE_LIMIT": "3",
        "THROTTLE_TOKEN": "6/minute",
        "GUNICORN_WORKERS": "1",  # the embedded cache is per process (CI: Redis, shared)
        "SECURE_PROXY_SSL_HEADER": "1",
    }
    with (
        serving(django_env, real_ip_from="127.0.0.1") as served,
        tls_terminator(int(served["port"])) as (port, cert),  # type: ignore[call-overload]
    ):
        stranger, owner = "127.0.0.2", "127.0.0.3"
        # The stranger, a new X-Forwarded-For each time (the owner's address among them).
        codes = [
            _token_from(stranger, port, f"wrong-{n}", tls=cert, forwarded=f"198.51.100.{n}")
            for n in range(3)
        ]
        codes += [_token_from(stranger, port, PASSWORD, tls=cert, forwarded=owner)]
        assert codes == ["bad_credentials", "bad_credentials", "locked_out", "locked_out"]
        # The owner, through the same terminator: neither locked nor throttled.
        assert _token_from(owner, port, PASSWORD, tls=cert) == "token"
        # The stranger's rate limit is its own: 6 a minute, then throttled.
        codes = [_token_from(stranger, port, "wrong", tls=cert) for _ in range(3)]
        assert codes == ["locked_out", "locked_out", "throttled"]
        assert _token_from(owner, port, PASSWORD, tls=cert) == "token"
        # Straight to the shipped nginx, not from the terminator: the header is not
        # believed (the stranger does not become the owner).
        direct = int(served["port"])  # type: ignore[call-overload]
        assert _token_from(stranger, direct, PASSWORD, tls=None, forwarded=owner) == "throttled"
        assert _token_from(owner, direct, PASSWORD, tls=None) == "token"


def _from(port: int, source: str, path: str, token: str) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    conn.request("GET", path, headers={"Host": "127.0.0.1", "Authorization": f"Bearer {token}"})
    return conn.getresponse()


@pytest.mark.django_db(transaction=True)
def test_nginx_refuses_a_reconnecting_stream_flood_from_one_address_only(
    site: dict[str, object],
) -> None:
    """An address that opens event streams faster than nginx's limit (2 a second, a burst of
    20) is refused by nginx itself, 429 `throttled` with Retry-After, before the stream
    service spends any work on it; another address is served meanwhile."""
    port = int(site["port"])  # type: ignore[call-overload]
    user = account_services.register_account(username="flooder", password=PASSWORD)
    token = account_services.create_token(user=user)
    path = "/api/v1/stream/events?timeout=1"
    statuses = []
    refused = None
    for _ in range(30):  # at once: far faster than 2 a second
        answer = _from(port, "127.0.0.2", path, token)
        statuses.append(answer.status)
        if answer.status == 429:  # the last one is nginx's (the burst long spent)
            refused = (answer.getheader("Retry-After"), json.loads(answer.read()))
        answer.close()  # a stream given: gone at once, so only the opening rate counts
    assert statuses[-1] == 429 and statuses.index(429) >= 10, statuses  # the burst first
    assert refused is not None and refused[0] == "5"
    assert refused[1]["code"] == "throttled" and refused[1]["retry_after"] == 5
    assert "from this address" in refused[1]["error"]
    time.sleep(2)  # the flood's streams end (?timeout=1): their seats come back
    other = account_services.create_token(
        user=account_services.register_account(username="neighbour", password=PASSWORD)
    )
    fresh = _from(port, "127.0.0.3", path, other)
    assert fresh.status == 200
    fresh.close()
