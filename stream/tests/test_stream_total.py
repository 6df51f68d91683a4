"""The stream service's total (issue #28.3): STREAM_MAX_TOTAL seats, of which
STREAM_RESERVED_FOR_BOTS only bot accounts' streams take; past them 503 `busy` with
Retry-After; the site's /healthz reports them.  The real service, full:
test_stream_service_full.py."""

from __future__ import annotations

import time
from contextlib import ExitStack
from typing import Any

import pytest

from accounts.models import Profile
from stream.slots import ServiceFull, stream_counts, stream_slot

pytestmark = pytest.mark.django_db

PAGE_EVENTS = "/api/v1/stream/page-events"
EVENTS = "/api/v1/stream/events?timeout=1"


def _hold(stack: ExitStack, count: int, *, first_user: int = 1000, **kind: bool) -> None:
    """`count` streams of as many users and addresses, held until `stack` closes;
    `kind`: page=True, bot=True or neither (another account's NDJSON stream)."""
    for number in range(first_user, first_user + count):
        address = f"192.0.2.{number % 250}"
        stack.enter_context(stream_slot(user_id=number, address=address, **kind))


def _make_bot(player: Any) -> None:
    Profile.objects.filter(user=player.user).update(is_bot=True)


def test_past_the_shared_seats_a_page_stream_is_503_busy_and_a_bot_still_streams(
    bob: Any, client: Any, settings: Any
) -> None:
    settings.STREAM_MAX_TOTAL, settings.STREAM_RESERVED_FOR_BOTS = 5, 2
    _make_bot(bob)
    client.force_login(bob.user)
    with ExitStack() as stack:
        _hold(stack, 3, page=True)  # every seat but the bots' two
        refused = client.get(PAGE_EVENTS, HTTP_ACCEPT="text/event-stream")
        assert refused.status_code == 503
        assert refused.json()["code"] == "busy" and refused.json()["retry_after"] > 0
        assert int(refused["Retry-After"]) == refused.json()["retry_after"]
        # The bots' reserve is still free: bob's bot stream opens.
        opened = bob.client.get(EVENTS)
        assert opened.status_code == 200
        assert stream_counts().bots == 1
        b"".join(opened.streaming_content)
    assert stream_counts().open == 0


def test_an_account_that_is_not_a_bot_never_takes_the_bots_reserve(
    alice: Any, settings: Any
) -> None:
    # The flood: ordinary accounts opening NDJSON streams, not pages.
    settings.STREAM_MAX_TOTAL, settings.STREAM_RESERVED_FOR_BOTS = 5, 2
    with ExitStack() as stack:
        _hold(stack, 3)
        refused = alice.client.get(EVENTS)
        assert refused.status_code == 503 and refused.json()["code"] == "busy"
        assert (stream_counts().others, stream_counts().open) == (3, 3)
        _make_bot(alice)
        assert alice.client.get(EVENTS).status_code == 200


def test_past_the_total_a_bot_stream_is_503_busy(bob: Any, settings: Any) -> None:
    settings.STREAM_MAX_TOTAL, settings.STREAM_RESERVED_FOR_BOTS = 4, 1
    _make_bot(bob)
    with ExitStack() as stack:
        _hold(stack, 4, bot=True)
        refused = bob.client.get(EVENTS)
        assert refused.status_code == 503 and refused.json()["code"] == "busy"
        assert refused["Retry-After"]
    # The refused stream gave back what it took of the account's and address's counts.
    assert bob.client.get(EVENTS).status_code == 200


def test_bots_take_their_reserved_seats_first_and_leave_the_rest_to_the_others(
    settings: Any,
) -> None:
    settings.STREAM_MAX_TOTAL, settings.STREAM_RESERVED_FOR_BOTS = 6, 3
    with ExitStack() as stack:
        _hold(stack, 3, bot=True)
        _hold(stack, 2, page=True, first_user=2000)
        _hold(stack, 1, first_user=3000)  # the last seat outside the bots' reserve
        for kind in ({"page": True}, {"bot": True}, {}):
            with pytest.raises(ServiceFull):
                _hold(stack, 1, first_user=4000, **kind)
        counts = stream_counts()
        assert (counts.bots, counts.pages, counts.others) == (3, 2, 1)


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
        "open": 0, "bots": 0, "pages": 0, "others": 0, "cap": 5, "reserved_for_bots": 2,
    }  # fmt: skip
    with ExitStack() as stack:
        _hold(stack, 1, bot=True)  # in the bots' reserve
        _hold(stack, 2, page=True, first_user=2000)
        assert client.get("/healthz").json()["streams"] == "ok"  # one seat for anybody
        _hold(stack, 1, first_user=3000)
        answer = client.get("/healthz")
        # Full but for the bots (who still have a seat): reported, still 200.
        assert answer.status_code == 200 and answer.json()["status"] == "ok"
        assert answer.json()["streams"] == "full"
        assert answer.json()["stream_slots"] == {
            "open": 4, "bots": 1, "pages": 2, "others": 1, "cap": 5, "reserved_for_bots": 2,
        }  # fmt: skip
