"""Issue #14.1: the event stream must not take PostgreSQL's connections.

Against the real stream service (gunicorn with platform/gunicorn-stream.conf.py) on the
PostgreSQL test database: while many streams wait, pg_stat_activity shows only a few
connections of the stream process; and the pool (DB_POOL_MAX_SIZE) caps a process's
connections however many of its threads want one at once.
"""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from accounts import services as account_services
from config.tests.servers import free_port, wait_until_listening

BASE_DIR = Path(__file__).resolve().parents[2]
PASSWORD = "stream-connections-password-4711"
STREAMS = 12

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="counts PostgreSQL's connections"),
]


# The processes under test name themselves to PostgreSQL (libpq reads PGAPPNAME), so that
# only their connections are counted: the session's Celery worker, busy with what earlier
# tests queued, has connections of its own.
UNDER_TEST = "adaptoid-connections-under-test"


def _others_connections() -> int:
    """Connections to the test database of the processes this test started."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [UNDER_TEST],
        )
        return int(cursor.fetchone()[0])


def _most_connections_during(seconds: float) -> int:
    most, deadline = 0, time.monotonic() + seconds
    while time.monotonic() < deadline:
        most = max(most, _others_connections())
        time.sleep(0.05)
    return most


def _server_env(extra: dict[str, str]) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_NAME": str(connection.settings_dict["NAME"]),
        "PGAPPNAME": UNDER_TEST,
        "LOG_LEVEL": "WARNING",
        **extra,
    }


def _stream_service(port: int, extra: dict[str, str]) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application",
         "--config", str(BASE_DIR / "platform" / "gunicorn-stream.conf.py")],
        cwd=BASE_DIR, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env=_server_env({
            "GUNICORN_BIND": f"127.0.0.1:{port}",
            "GUNICORN_THREADS": str(STREAMS + 4),
            "STREAM_MAX_TOTAL": str(STREAMS + 2),  # below the threads, as checked at start
            "STREAM_RESERVED_FOR_BOTS": "2",
            "STREAM_MAX_SECONDS": "8",
            "STREAM_KEEPALIVE_SECONDS": "1",
            **extra,
        }),
    )  # fmt: skip
    wait_until_listening(server, port)
    return server


def _open_streams(port: int) -> Iterator[http.client.HTTPResponse]:
    # Four users, three streams each: under the per-user cap (4), all from one address.
    for index in range(STREAMS):
        if index % 3 == 0:
            user = account_services.register_account(
                username=f"streamer-{index}", password=PASSWORD
            )
            token = account_services.create_token(user=user)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request(
            "GET", "/api/v1/stream/events",
            headers={"Host": "127.0.0.1", "Authorization": f"Bearer {token}"},
        )  # fmt: skip
        answer = conn.getresponse()
        assert answer.status == 200, answer.read()
        yield answer


@pytest.mark.parametrize(
    ("pool", "most"),
    [
        # No pool: each poll connects and disconnects; a few overlap at most.
        ("0", 4),
        # The stream service's pool: never more than its size.
        ("2", 2),
    ],
)
def test_waiting_streams_hold_almost_no_database_connections(pool: str, most: int) -> None:
    port = free_port()
    server = _stream_service(port, {"DB_POOL_MAX_SIZE": pool})
    try:
        answers = list(_open_streams(port))
        for answer in answers:
            answer.readline()  # streaming: past the snapshot, now polling and waiting
        seen = _most_connections_during(3.0)
        # Without giving the connection back, each of the 12 streams kept one.
        assert 1 <= seen <= most, f"{seen} connections for {STREAMS} waiting streams"
        for answer in answers:
            answer.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)


def test_the_pool_caps_a_processs_connections_however_many_threads_ask() -> None:
    # Eight threads each hold a connection for half a second; the pool has two.
    code = """
import threading
from django.db import connection

def work():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_sleep(0.5)")
    connection.close()  # back to the pool

threads = [threading.Thread(target=work) for _ in range(8)]
for thread in threads: thread.start()
for thread in threads: thread.join()
print("done")
"""
    process = subprocess.Popen(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=BASE_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=_server_env({"DB_POOL_MAX_SIZE": "2"}),
    )  # fmt: skip
    seen = [0]

    def watch() -> None:
        while process.poll() is None:
            seen[0] = max(seen[0], _others_connections())
            time.sleep(0.05)
        connection.close()  # this thread's own connection

    watcher = threading.Thread(target=watch)
    watcher.start()
    out, err = process.communicate(timeout=60)
    watcher.join()
    assert process.returncode == 0 and "done" in out, err
    assert 1 <= seen[0] <= 2, seen[0]
