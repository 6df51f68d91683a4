"""Ratings computed by a REAL Celery worker process after a rated game ends."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import Profile
from core.testing import wait_for
from games import services
from ratings.models import RatingChange

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_rated_game_changes_both_ratings_through_the_worker(
    celery_worker_process: Any, alice: Any, bob: Any
) -> None:
    game = services.start_game(white=alice.user, black=bob.user, rated=True)
    services.resign(game=game, player=bob.user)  # commits; the receiver queues rate_game
    wait_for(lambda: RatingChange.objects.filter(game=game).count() == 2, celery_worker_process)
    winner, loser = Profile.objects.get(user=alice.user), Profile.objects.get(user=bob.user)
    assert winner.rating > 1500 > loser.rating
    assert winner.rating_deviation < 350 and loser.rating_deviation < 350
    history = alice.client.get("/api/v1/players/alice").json()["rating_history"]
    assert [point["game"] for point in history] == [game.pk]
    assert history[0]["rating"] == pytest.approx(winner.rating)
