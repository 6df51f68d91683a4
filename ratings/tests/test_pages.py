"""Web pages of the ratings: the leaderboard and the rating chart."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import Profile
from games import services
from ratings.services import rate_finished_game

pytestmark = pytest.mark.django_db


def test_leaderboard_orders_by_rating_and_filters(alice: Any, bob: Any, make_bot: Any) -> None:
    make_bot("random-bot")
    Profile.objects.filter(user=bob.user).update(rating=1800.0, rating_deviation=60.0)
    page = Client().get("/leaderboard/")
    assert page.status_code == 200
    text = page.content.decode()
    assert text.index(">bob<") < text.index(">alice<")
    assert "1800<" in text and "1500?" in text  # alice's rating is provisional
    people = Client().get("/leaderboard/?who=people").content.decode()
    assert "random-bot" not in people and ">alice<" in people


def test_rating_chart_is_served_as_svg(alice: Any, bob: Any) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    services.resign(game=game, player=bob.user)
    rate_finished_game(game_id=game.pk)
    answer = Client().get("/players/alice/rating.svg")
    assert answer.status_code == 200 and answer["Content-Type"] == "image/svg+xml"
    assert answer.content.startswith(b"<svg") and b"<polyline" in answer.content
    assert Client().get("/players/nobody/rating.svg").status_code == 404
