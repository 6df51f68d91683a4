"""Issue #28.3: the stream service has a total, and when it is full it says so at once.

Against the real stream service (gunicorn with platform/gunicorn-stream.conf.py: 12
threads, a total of 8 streams of which 3 are kept for bot accounts) on the tests'
database and Redis.  Page streams, an ordinary account's NDJSON streams and bots'
streams, of several accounts from several loopback addresses, fill it; then a new page
stream, or a new ordinary account's stream, gets 503 `busy` with Retry-After within a
second, a fresh bot's stream gets its status line within a second (the bots' reserved
share), past the total bots are refused as fast, the stream service's own /healthz
answers, and the site's /healthz reports the streams full.  Without the total, streams
took every thread: the next connection waited (the issue measured 30 s) and /healthz
with it.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from accounts import services as account_services
from accounts.models import Profile
from config.tests.servers import free_port, start_gunicorn, wait_until_listening

PASSWORD = "stream-service-full-password-4711"
THREADS, TOTAL, RESERVED = 12, 8, 3
PAGE = "/api/v1/stream/page-events"
BOT = "/api/v1/stream/events"

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not settings.REDIS_URL,
        reason="the stream service and the site see the same counts only through Redis",
    ),
]


@pytest.fixture
def stream_service(tmp_path: Any) -> Iterator[int]:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_NAME": str(connection.settings_dict["NAME"]),
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_THREADS": str(THREADS),
        "STREAM_MAX_TOTAL": str(TOTAL),
        "STREAM_RESERVED_FOR_BOTS": str(RESERVED),
        "STREAM_MAX_SECONDS": "60",
        "STREAM_KEEPALIVE_SECONDS": "1",
        "LOG_LEVEL": "WARNING",
    }
    with open(tmp_path / "stream.log", "wb") as log:
        server = start_gunicorn(env, log, config="gunicorn-stream.conf.py")
        try:
            wait_until_listening(server, port)
            yield port
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(30)


def _token(name: str) -> str:
    user = account_services.register_account(username=name, password=PASSWORD)
    return str(account_services.create_token(user=user))


def _get(
    port: int, path: str, *, source: str, token: str | None = None
) -> tuple[http.client.HTTPResponse, float]:
    """The answer's status line and headers (its body left to read), and how long they
    took; `source`: the client's own loopback address (the per-address caps)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    headers = {"Host": "127.0.0.1"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    started = time.monotonic()
    conn.request("GET", path, headers=headers)
    answer = conn.getresponse()
    return answer, time.monotonic() - started


def _refused(port: int, path: str, *, source: str, token: str) -> float:
    """Ask for a stream that must be refused at once: 503 `busy` with Retry-After; the
    answer is read and the connection closed as any client (or nginx) does.  Returns the
    seconds the answer took."""
    answer, seconds = _get(port, path, source=source, token=token)
    assert answer.status == 503, (answer.status, seconds)
    body = json.loads(answer.read())
    answer.close()
    assert body["code"] == "busy" and body["error"], body
    assert int(answer.headers["Retry-After"]) > 0
    return seconds


def _bot_token(name: str) -> str:
    token = _token(name)
    Profile.objects.filter(user__username=name).update(is_bot=True)
    return token


def test_a_full_stream_service_refuses_at_once_and_keeps_the_bots_share(
    stream_service: int, client: Any
) -> None:
    port = stream_service
    settings.STREAM_MAX_TOTAL, settings.STREAM_RESERVED_FOR_BOTS = TOTAL, RESERVED
    held = []
    # The seats outside the bots' reserve (8 - 3 = 5): two players' tabs and an
    # ordinary account's NDJSON streams (the flood), from three addresses...
    for name, path, count, source in (
        ("ann", PAGE, 2, "127.0.0.2"), ("ben", PAGE, 1, "127.0.0.3"), ("cy", BOT, 2, "127.0.0.4"),
    ):  # fmt: skip
        token = _token(name)
        for _ in range(count):
            answer, _seconds = _get(port, path, source=source, token=token)
            assert answer.status == 200, answer.read()
            assert answer.readline() in (b"retry: 1000\n", b"\n")  # its first line
            held.append(answer)
    # ...and two bot accounts from two more: seven streams of eight.
    for name, source in (("bot-d", "127.0.0.5"), ("bot-e", "127.0.0.6")):
        answer, _seconds = _get(port, BOT, source=source, token=_bot_token(name))
        assert answer.status == 200, answer.read()
        held.append(answer)

    # A new player's tab and a new ordinary account's stream, far under their own caps:
    # refused at once (the page polls).
    for name, path in (("dee", PAGE), ("eve", BOT)):
        seconds = _refused(port, path, source="127.0.0.7", token=_token(name))
        assert seconds < 1, f"the refusal took {seconds:.2f} s"
    # A fresh bot takes the last seat: nobody else gets the bots' reserve.
    answer, seconds = _get(port, BOT, source="127.0.0.8", token=_bot_token("bot-f"))
    assert answer.status == 200 and seconds < 1, (answer.status, seconds)
    held.append(answer)

    # Full: more bots at once than threads are left, each refused within a second.
    tokens = [_bot_token(f"late-{number}") for number in range(2 * (THREADS - TOTAL))]
    with ThreadPoolExecutor(len(tokens)) as pool:
        late = list(
            pool.map(
                lambda item: _refused(port, BOT, source=f"127.0.1.{item[0]}", token=item[1]),
                enumerate(tokens, start=1),
            )
        )
    assert max(late) < 1, f"refusals took {sorted(late)} s"

    # The stream service's own /healthz still answers (a free thread)...
    answer, seconds = _get(port, "/healthz", source="127.0.0.9")
    assert answer.status == 200 and seconds < 5, (answer.status, seconds, answer.read())
    answer.read()
    # ...and the site's reports the saturation, still 200 (the web node itself is fine).
    health = client.get("/healthz")
    assert health.status_code == 200, health.content
    assert health.json()["streams"] == "full"
    assert health.json()["stream_slots"] == {
        "open": TOTAL, "bots": 3, "pages": 3, "others": 2, "cap": TOTAL,
        "reserved_for_bots": RESERVED,
    }  # fmt: skip

    # A closed tab gives its seat back (at the stream's next keep-alive): a page gets it.
    held.pop(0).close()
    deadline = time.monotonic() + 10
    while client.get("/healthz").json()["stream_slots"]["pages"] != 2:
        assert time.monotonic() < deadline, "a closed page stream kept its seat"
        time.sleep(0.2)
    assert client.get("/healthz").json()["streams"] == "ok"
    answer, _seconds = _get(port, PAGE, source="127.0.0.7", token=_token("fay"))
    assert answer.status == 200, answer.read()
    held.append(answer)
    for answer in held:
        answer.close()
