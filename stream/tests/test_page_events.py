"""GET /api/v1/stream/page-events: the Server-Sent Events the site's pages follow."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import agreements, services
from stream.events import page_event_lines
from stream.models import Event
from stream.slots import stream_slot
from tournaments import services as tournament_services
from tournaments.tests.helpers import jobs_run_here, make_tournament, make_user, open_games

pytestmark = pytest.mark.django_db

PAGE_EVENTS = "/api/v1/stream/page-events"


def _messages(body: bytes) -> list[dict[str, Any]]:
    """The data of each SSE message (comments and the retry field left out)."""
    messages = []
    for block in body.decode().split("\n\n"):
        data = [line[len("data: ") :] for line in block.split("\n") if line.startswith("data: ")]
        if data:
            messages.append(json.loads("\n".join(data)))
    return messages


def _stream(user_id: int, after: int | None = None, changes: Any = None) -> list[bytes]:
    """A page stream read to its end on a fake clock; `changes()` runs after "ready"."""
    stream = page_event_lines(
        user_id,
        after=after,
        lifetime=8,
        keepalive=3,
        clock=iter(range(1000)).__next__,
        sleep=lambda seconds: None,
    )
    chunks = [next(stream)]
    if changes is not None:
        changes()
    return chunks + list(stream)


def test_a_logged_in_page_gets_an_event_stream(alice: Any, bob: Any, client: Any) -> None:
    client.force_login(bob.user)
    answer = client.get(PAGE_EVENTS, HTTP_ACCEPT="text/event-stream")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/event-stream")
    assert answer["X-Accel-Buffering"] == "no" and answer["Cache-Control"] == "no-cache"
    body = b"".join(answer.streaming_content)
    assert body.startswith(b"retry: 1000\nid: ")
    assert _messages(body)[0] == {"type": "ready", "game": None, "challenge": None}


def test_without_a_log_in_the_page_stream_is_refused(client: Any) -> None:
    answer = client.get(PAGE_EVENTS, HTTP_ACCEPT="text/event-stream")
    assert answer.status_code == 401
    assert answer.json()["code"] == "not_authenticated"


def test_a_turn_a_challenge_a_draw_offer_and_a_round_paired_reach_the_page(
    alice: Any, bob: Any
) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    organiser = make_user("organiser", organiser=True)
    cup = make_tournament(organiser, [alice.user, bob.user], format="roundrobin")

    def changes() -> None:
        services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
        services.create_challenge(creator=alice.user, opponent="bob")
        agreements.offer_draw(game=game, player=alice.user)
        with jobs_run_here():  # the round's pairing job, as the worker runs it
            tournament_services.start_tournament(tournament=cup, by=organiser)

    chunks = _stream(bob.user.pk, changes=changes)
    messages = _messages(b"".join(chunks))
    challenge = Event.objects.get(user=bob.user, type="challenge").payload["id"]
    paired = open_games(cup)
    assert len(paired) == 1  # two players: one game in round 1
    assert messages[1:4] == [
        {"type": "turn", "game": game.pk, "challenge": None},
        {"type": "challenge", "game": None, "challenge": challenge},
        {"type": "draw_offer", "game": game.pk, "challenge": None},
    ]
    assert {"type": "game_start", "game": paired[0].pk, "challenge": None} in messages[4:]
    # Each message carries its event's id, for Last-Event-ID.
    turn = Event.objects.get(user=bob.user, type="turn")
    assert f"id: {turn.pk}\ndata: ".encode() in b"".join(chunks)
    assert b": keep-alive\n\n" in chunks


def test_the_bots_ndjson_stream_does_not_carry_the_page_only_draw_offer(
    alice: Any, bob: Any
) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    agreements.offer_draw(game=game, player=alice.user)
    agreements.cancel_draw_offer(game=game, player=bob.user)
    assert Event.objects.filter(user=bob.user, type="draw_offer").count() == 2
    answer = bob.client.get("/api/v1/stream/events?timeout=1")
    lines = [json.loads(line) for line in b"".join(answer.streaming_content).split(b"\n") if line]
    assert [line["type"] for line in lines] == ["game_start"]  # the snapshot only


def test_a_reconnecting_page_resumes_after_its_last_event_id(alice: Any, bob: Any) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    seen = Event.objects.filter(user=bob.user).order_by("id").last()
    assert seen is not None
    # Settled events (older than SETTLE_SECONDS) up to Last-Event-ID are not sent again.
    Event.objects.filter(user=bob.user).update(created=seen.created.replace(year=2020))
    services.play_turn(game=game, player=bob.user, text="D6L", ply=2)
    services.play_turn(game=game, player=alice.user, text="D2P", ply=3)
    messages = _messages(b"".join(_stream(bob.user.pk, after=seen.pk)))
    assert [(m["type"], m["game"]) for m in messages] == [
        ("ready", None),
        ("turn", game.pk),
        ("turn", game.pk),
    ]
    assert (
        _messages(
            b"".join(bob.client.get(PAGE_EVENTS, HTTP_LAST_EVENT_ID=str(seen.pk)).streaming_content)
        )[0]["type"]
        == "ready"
    )


def test_a_bad_last_event_id_is_a_clear_400(bob: Any) -> None:
    answer = bob.client.get(PAGE_EVENTS, HTTP_LAST_EVENT_ID="soon")
    assert answer.status_code == 400
    assert "Last-Event-ID" in json.dumps(answer.json())


def test_past_the_page_cap_the_stream_is_refused_and_bots_keep_theirs(
    bob: Any, client: Any, settings: Any
) -> None:
    settings.STREAM_PAGE_MAX_PER_USER = 2
    client.force_login(bob.user)
    held = [stream_slot(user_id=bob.user.pk, address="127.0.0.1", page=True) for _ in range(2)]
    for slot in held:
        slot.__enter__()
    try:
        refused = client.get(PAGE_EVENTS, HTTP_ACCEPT="text/event-stream")
        assert refused.status_code == 429
        assert refused.json()["code"] == "throttled"
        assert "at most 2 per account" in refused.json()["error"]
        # The page cap is the pages' own: the bot's token stream still opens.
        assert bob.client.get("/api/v1/stream/events?timeout=1").status_code == 200
    finally:
        for slot in held:
            slot.__exit__(None, None, None)
    # A tab closed gives its slot back: the next page gets its stream.
    opened = client.get(PAGE_EVENTS)
    assert opened.status_code == 200
    b"".join(opened.streaming_content)
