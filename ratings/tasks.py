"""Celery task of the ratings: rate a finished game (queued by ratings.receivers).

Takes an id, is idempotent (a game is rated once, however often the task runs)
and has a time limit; database hiccups are retried.
"""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task
from django.db import OperationalError


@shared_task(
    bind=True,
    acks_late=True,
    time_limit=30,
    soft_time_limit=25,
    autoretry_for=(OperationalError, ConnectionError),
    max_retries=3,
    retry_backoff=True,
)
def rate_game(self: Task, game_id: int) -> list[dict[str, Any]]:
    """Glicko-2 update of both players of a finished rated game (see ratings.services)."""
    from ratings.services import rate_finished_game

    return [
        {"user": change.user_id, "before": change.rating_before, "after": change.rating}
        for change in rate_finished_game(game_id=game_id)
    ]
