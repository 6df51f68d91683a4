"""Issue #14.1: /healthz says 503 when the database refuses connections (a real
gunicorn process of each service, pointed at a PostgreSQL that is not there or at a
database that does not exist)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from config.tests.servers import free_port, wait_until_listening

BASE_DIR = Path(__file__).resolve().parents[2]


def _healthz(config: str, database_url: str) -> tuple[int, dict[str, str], float]:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "1",
        "GUNICORN_THREADS": "2",
        "STREAM_MAX_TOTAL": "1",  # below the threads (the stream service checks at start)
        "STREAM_RESERVED_FOR_BOTS": "0",
        "DB_POOL_TIMEOUT": "2",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("DATABASE_NAME", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application",
         "--config", str(BASE_DIR / "platform" / config)],
        cwd=BASE_DIR, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_until_listening(server, port)
        started = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
        answer = conn.getresponse()
        body = json.loads(answer.read())
        return answer.status, body, time.monotonic() - started
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)


@pytest.mark.parametrize("config", ["gunicorn.conf.py", "gunicorn-stream.conf.py"])
@pytest.mark.parametrize("where", ["closed port", "no such database"])
def test_healthz_is_503_when_the_database_refuses_connections(config: str, where: str) -> None:
    if where == "closed port":
        url = f"postgres://postgres@127.0.0.1:{free_port()}/adaptoid"
    else:
        if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
            pytest.skip("needs a PostgreSQL server (DATABASE_URL)")
        url = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/adaptoid_no_such_database"
    status, body, seconds = _healthz(config, url)
    assert status == 503, body
    assert body["status"] == "error" and body["database"].startswith("error: "), body
    # The stream service's pool gives up after DB_POOL_TIMEOUT, not the proxy's timeout.
    assert seconds < 15, seconds


def allow_connections(database: str, allowed: bool) -> None:
    import psycopg
    from django.db import connection

    config = connection.settings_dict
    with psycopg.connect(
        host=config["HOST"] or None,
        port=config["PORT"] or None,
        user=config["USER"] or None,
        password=config["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    ) as maintenance:
        maintenance.execute(
            f'ALTER DATABASE "{database}" WITH ALLOW_CONNECTIONS {str(allowed).lower()}'
        )


@pytest.mark.django_db(transaction=True)
def test_healthz_is_503_when_new_connections_are_refused_though_its_own_still_works() -> None:
    """The issue's case: PostgreSQL full, the web process's kept connection still fine."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")
    name = connection.settings_dict["NAME"]
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_NAME": str(name),
        "CONN_MAX_AGE": "600",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "1",
        "LOG_LEVEL": "WARNING",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application",
         "--config", str(BASE_DIR / "platform" / "gunicorn.conf.py")],
        cwd=BASE_DIR, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip

    def healthz() -> tuple[int, dict[str, str]]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read())

    try:
        wait_until_listening(server, port)
        assert healthz()[0] == 200  # and the worker now keeps a connection
        # Only this database refuses: the server's other databases (other runs) go on.
        # (Said from the maintenance database: one cannot lock out the current one.)
        allow_connections(name, False)
        try:
            status, body = healthz()
        finally:
            allow_connections(name, True)
        assert status == 503, body
        assert body["database"].startswith("error: "), body
        assert healthz()[0] == 200
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)
