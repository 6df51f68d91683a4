"""The stream service's total (issue #28.3): STREAM_MAX_TOTAL seats, of which
STREAM_RESERVED_FOR_BOTS only bots' streams take; past them 503 `busy` with Retry-After;
the site's /healthz reports them.  The real service, full: test_stream_service_full.py."""

from __future__ import annotations

import time
from contextlib import ExitStack
from typing import Any

import pytest

from stream.slots import ServiceFull, stream_counts, stream_slot

pytestmark = pytest.mark.django_db

PAGE_EVENTS = "/api/v1/stream/page-events"
EVENTS = "/api/v1/stream/events?timeout=1"


def _hold(stack: ExitStack, count: int, *, page: bool, first_user: int = 1000) -> None:
    """`count` streams of as many users and addresses, held until `stack` closes."""
    for number in range(first_user, first_user + count):
        stack.enter_context(
            stream_slot(user_id=number, address=f"192.0.2.{number % 250}", page=page)
        )


def test_past_the_pages_share_a_page_stream_is_503_busy_and_a_bot_still_streams(
    bob: Any, client: Any, settings: Any
) -> None:
    settings.STREAM_MAX_TOTAL, settings.STREAM_RESERVED_FOR_BOTS = 5, 2
    client.force_login(bob.user)
    with ExitStack() as stack:
        _hold(stack, 3, page=True)  # the pages' share: 5 - 2
        refused = client.get(PAGE_EVENTS, HTTP_ACCEPT="text/event-stream")
        assert refused.status_code == 503
        assert refused.json()["code"] == "busy" and refused.json()["retry_after"] > 0
        assert int(refused["Retry-After"]) == refused.json()["retry_after"]
        # The bots' reserve is still free: bob's bot stream opens (one of its two seats).
        opened = bob.client.get(EVENTS)
        assert opened.status_code == 200
        assert stream_counts().open == 4
        b"".join(opened.streaming_content)
    assert stream_counts().open == 0


def test_past_the_total_a_bot_stream_is_503_busy(bob: Any, settings: Any) -> None:
    settings.STREAM_MAX_TOTAL, settings.STREAM_RESERVED_FOR_BOTS = 4, 1
    with ExitStack() as stack:
        _hold(stack, 4, page=False)
        refused = bob.client.get(EVENTS)
        assert refused.status_code == 503 and refused.json()["code"] == "busy"
        assert refused["Retry-After"]
    # The refused stream gave back what it took of the account's and address's counts.
    assert bob.client.get(EVENTS).status_code == 200


def test_bots_take_their_reserved_seats_first_and_leave_the_rest_to_the_pages(
    settings: Any,
) -> None:
    settings.STREAM_MAX_TOTAL, settings.STREAM_RESERVED_FOR_BOTS = 6, 3
    with ExitStack() as stack:
        _hold(stack, 3, page=False)
        _hold(stack, 3, page=True, first_user=2000)  # the pages' whole share
        with pytest.raises(ServiceFull):
            _hold(stack, 1, page=True, first_user=3000)
        with pytest.raises(ServiceFull):
            _hold(stack, 1, page=False, first_user=3000)
        assert (stream_counts().bots, stream_counts().pages) == (3, 3)


def test_a_seat_not_renewed_comes_free_and_a_renewed_one_stays(settings: Any) -> None:
    # A stream renews its seat as it writes; a killed process's seats are not renewed
    # and come free after 3 keep-alives + DB_POOL_TIMEOUT (here 3 × 1 + 1 s), not after
    # the longest stream.
    settings.STREAM_MAX_TOTAL, settings.STREAM_RESERVED_FOR_BOTS = 2, 0
    settings.STREAM_KEEPALIVE_SECONDS, settings.DB_POOL_TIMEOUT = 1, 1
    killed = stream_slot(user_id=1, address="192.0.2.1")
    killed.__enter__()  # never left, never renewed: a process killed mid-stream
    live = stream_slot(user_id=2, address="192.0.2.2")
    seat = live.__enter__()
    assert seat is not None
    assert stream_counts().open == 2
    deadline = time.monotonic() + 6
    while time.monotonic() < deadline:
        seat.renew()
        time.sleep(0.2)
    assert stream_counts().open == 1
    with stream_slot(user_id=3, address="192.0.2.3"):
        assert stream_counts().open == 2
    live.__exit__(None, None, None)
    assert stream_counts().open == 0
    del killed


def test_the_sites_healthz_reports_the_streams_without_failing(client: Any, settings: Any) -> None:
    settings.STREAM_MAX_TOTAL, settings.STREAM_RESERVED_FOR_BOTS = 5, 2
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json()["streams"] == "ok"
    assert answer.json()["stream_slots"] == {
        "open": 0, "bots": 0, "pages": 0, "cap": 5, "reserved_for_bots": 2,
    }  # fmt: skip
    with ExitStack() as stack:
        _hold(stack, 1, page=False)
        _hold(stack, 3, page=True, first_user=2000)
        answer = client.get("/healthz")
        # Full for the pages (bots still have a seat): reported, still 200.
        assert answer.status_code == 200 and answer.json()["status"] == "ok"
        assert answer.json()["streams"] == "full"
        assert answer.json()["stream_slots"] == {
            "open": 4, "bots": 1, "pages": 3, "cap": 5, "reserved_for_bots": 2,
        }  # fmt: skip
