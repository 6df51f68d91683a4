"""Ratings: the service, the players API and the SVG chart."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from accounts.models import Profile
from games import services
from ratings import glicko2
from ratings.chart import rating_chart_svg
from ratings.models import RatingChange
from ratings.services import rate_finished_game

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


def test_players_can_be_filtered_to_bots_and_bad_orderings_are_400(
    api: Any, alice: Any, make_bot: Any
) -> None:
    make_bot("random-bot")
    make_bot("greedy-bot")
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
