"""Ratings (service, players API, SVG chart) and the NDJSON event stream."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from accounts.models import Profile
from games import bots, glicko2, services
from games.events import event_lines
from games.models import Event, RatingChange
from games.ratings import rate_finished_game, rating_chart_svg

pytestmark = pytest.mark.django_db


# --- Ratings ---------------------------------------------------------------------------------


def test_a_rated_game_is_rated_once_with_glicko2(alice: Any, bob: Any) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    services.resign(game=game, player=bob.user)

    changes = rate_finished_game(game_id=game.pk)

    expected_white, expected_black = glicko2.rate_game(glicko2.Rating(), glicko2.Rating(), 1.0)
    alice_profile = Profile.objects.get(user=alice.user)
    assert alice_profile.rating == pytest.approx(expected_white.rating)
    assert alice_profile.rating_deviation == pytest.approx(expected_white.deviation)
    assert Profile.objects.get(user=bob.user).rating == pytest.approx(expected_black.rating)
    assert {(c.user_id, c.rating_before) for c in changes} == {
        (alice.user.pk, 1500.0), (bob.user.pk, 1500.0),
    }  # fmt: skip
    # A redelivered task changes nothing.
    rate_finished_game(game_id=game.pk)
    assert RatingChange.objects.count() == 2
    assert Profile.objects.get(user=alice.user).rating == pytest.approx(expected_white.rating)


def test_unrated_running_and_abandoned_games_are_not_rated(alice: Any, bob: Any) -> None:
    unrated = services.start_game(white=alice.user, black=bob.user, rated=False)
    services.resign(game=unrated, player=bob.user)
    running = services.start_game(white=alice.user, black=bob.user)
    abandoned = services.start_game(white=alice.user, black=bob.user)
    services.adjudicate(game=abandoned, result="1-0", termination="abandoned")
    for game in (unrated, running, abandoned):
        assert rate_finished_game(game_id=game.pk) == []
    assert Profile.objects.get(user=alice.user).rating == 1500.0


def test_draws_move_the_lower_rated_player_up(alice: Any, bob: Any) -> None:
    Profile.objects.filter(user=alice.user).update(rating=1700.0, rating_deviation=80.0)
    game = services.start_game(white=alice.user, black=bob.user)
    services.finish_game(game=game, result="1/2-1/2", termination="repetition")
    rate_finished_game(game_id=game.pk)
    assert Profile.objects.get(user=alice.user).rating < 1700.0
    assert Profile.objects.get(user=bob.user).rating > 1500.0


def test_players_are_listed_by_rating_both_ways_and_by_name(
    api: Any, alice: Any, bob: Any, stranger: Any
) -> None:
    Profile.objects.filter(user=alice.user).update(rating=1600.0)
    Profile.objects.filter(user=bob.user).update(rating=1400.0)
    names = lambda ordering: [
        player["username"]
        for player in api.get(f"/api/v1/players?ordering={ordering}").json()["results"]
    ]
    assert names("-rating") == ["alice", "mallory", "bob"]
    assert names("rating") == ["bob", "mallory", "alice"]
    assert names("username") == ["alice", "bob", "mallory"]
    first = api.get("/api/v1/players?page_size=2").json()
    assert first["count"] == 3 and len(first["results"]) == 2 and first["next"]
    assert first["results"][0] == {
        "username": "alice", "display_name": "", "is_bot": False, "bot_level": None,
        "rating": 1600.0, "rating_deviation": 350.0, "rating_volatility": 0.06,
        "provisional": True,
    }  # fmt: skip


def test_players_can_be_filtered_to_bots_and_bad_orderings_are_400(api: Any, alice: Any) -> None:
    bots.ensure_builtin_bots()
    only_bots = api.get("/api/v1/players?bots=true&ordering=username").json()["results"]
    assert only_bots and all(player["is_bot"] for player in only_bots)
    people = api.get("/api/v1/players?bots=false").json()["results"]
    assert [player["username"] for player in people] == ["alice"]
    bad = api.get("/api/v1/players?ordering=password")
    assert bad.status_code == 400 and "ordering" in bad.json()["fields"]
    assert api.get("/api/v1/players/nobody").status_code == 404


def test_rating_chart_is_valid_svg_with_a_point_per_game(alice: Any, bob: Any) -> None:
    for _ in range(3):
        game = services.start_game(white=alice.user, black=bob.user)
        services.resign(game=game, player=bob.user)
        rate_finished_game(game_id=game.pk)
    changes = list(RatingChange.objects.filter(user=alice.user).order_by("id"))
    svg = rating_chart_svg(changes, title="alice <rating>")
    root = ET.fromstring(svg)  # well-formed XML, the title escaped
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    points = root.find(f"{ns}polyline").get("points").split()
    assert len(points) == 4  # the start and one point per game
    ys = [float(point.split(",")[1]) for point in points]
    assert ys == sorted(ys, reverse=True)  # three wins: the line only goes up
    assert ET.fromstring(rating_chart_svg([], title="none")).tag == f"{ns}svg"


# --- Event stream ------------------------------------------------------------------------------


def test_events_report_challenges_starts_turns_and_the_end(alice: Any, bob: Any) -> None:
    challenge = services.create_challenge(creator=alice.user, opponent="bob", color="white")
    game = services.accept_challenge(challenge=challenge, player=bob.user)
    services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    services.resign(game=game, player=bob.user)

    types = list(Event.objects.filter(user=bob.user).values_list("type", flat=True))
    assert types == ["challenge", "game_start", "turn", "game_finish"]
    assert list(Event.objects.filter(user=alice.user).values_list("type", flat=True)) == [
        "game_start", "turn", "game_finish",
    ]  # fmt: skip
    turn = Event.objects.get(user=bob.user, type="turn").payload
    assert turn["turn"] == {"ply": 1, "text": "D2L", "player": "alice"}
    assert turn["game"]["to_move"] == "black" and turn["game"]["color"] == "black"
    finish = Event.objects.get(user=bob.user, type="game_finish").payload["game"]
    assert finish["result"] == "1-0" and finish["termination"] == "resignation"


def test_built_in_bots_get_no_events(alice: Any) -> None:
    bot = bots.ensure_builtin_bots()[0]
    game = services.start_game(white=bot, black=alice.user)
    services.resign(game=game, player=alice.user)
    assert not Event.objects.filter(user=bot).exists()
    assert Event.objects.filter(user=alice.user).count() == 2


def test_stream_sends_the_snapshot_then_new_events_then_keepalives(alice: Any, bob: Any) -> None:
    waiting = services.create_challenge(creator=alice.user, opponent="bob")
    running = services.start_game(white=alice.user, black=bob.user)
    stream = event_lines(
        bob.user.pk,
        lifetime=6,
        keepalive=2,
        clock=iter(range(1000)).__next__,
        sleep=lambda seconds: None,
    )
    snapshot = [json.loads(next(stream)), json.loads(next(stream))]
    assert snapshot == [
        {"type": "challenge", "challenge": snapshot[0]["challenge"]},
        {"type": "game_start", "game": snapshot[1]["game"]},
    ]
    assert snapshot[0]["challenge"]["id"] == waiting.pk
    assert snapshot[1]["game"]["id"] == running.pk and snapshot[1]["game"]["color"] == "black"
    # Events written before the connection are not repeated; new ones follow in order.
    services.play_turn(game=running, player=alice.user, text="D2L", ply=1)
    rest = list(stream)
    events = [json.loads(line) for line in rest if line.strip()]
    assert [event["type"] for event in events] == ["turn"]
    assert events[0]["id"] == Event.objects.get(user=bob.user, type="turn").pk
    assert b"\n" in rest  # keep-alive lines while nothing happens


def test_stream_endpoint_is_ndjson_for_the_signed_in_user(api: Any, alice: Any, bob: Any) -> None:
    services.create_challenge(creator=bob.user, opponent="alice")
    answer = alice.client.get("/api/v1/stream/events?timeout=1", HTTP_ACCEPT="application/x-ndjson")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/x-ndjson"
    lines = [line for line in b"".join(answer.streaming_content).split(b"\n") if line]
    assert json.loads(lines[0])["challenge"]["created_by"] == "bob"
    assert api.get("/api/v1/stream/events").status_code == 401
    bad = alice.client.get("/api/v1/stream/events?timeout=0")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"


def test_a_game_won_by_a_turn_reports_the_turn_before_the_end(alice: Any, bob: Any) -> None:
    # Random turns until the engine ends the game (captures, elimination or repetition).
    game = services.start_game(white=alice.user, black=bob.user)
    position = services.replay(game)
    mover = {"white": alice.user, "black": bob.user}
    rng = random.Random(3)
    while game.status == "active":
        turn = position.random_turn(rng)
        position.push(turn)
        game, _ = services.play_turn(
            game=game, player=mover[game.to_move], text=str(turn), ply=game.ply + 1
        )
    assert game.termination in ("captures", "elimination", "repetition")
    types = list(Event.objects.filter(user=bob.user).values_list("type", flat=True))
    assert types[-2:] == ["turn", "game_finish"] and types.count("game_finish") == 1
