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


# A finished rated game whose rate_game message was lost (the broker down at its
# commit: core.tasks sends after commit and only logs a failure) is rated by this
# sweep.  Only recent games of this site: imported games keep the ratings they came with.
SWEEP_LOOKBACK_HOURS = 24
SWEEP_GRACE_SECONDS = 60  # the ordinary task normally rates a game well within this


@shared_task(acks_late=True, time_limit=120, soft_time_limit=100)
def sweep_unrated_games() -> int:
    """Rate the recent finished rated games left unrated, oldest first; how many."""
    import datetime

    from django.utils import timezone

    from games.models import Game
    from ratings.services import rate_finished_game

    now = timezone.now()
    game_ids = list(
        Game.objects.filter(
            status=Game.Status.FINISHED,
            rated=True,
            imported=False,
            finished__gte=now - datetime.timedelta(hours=SWEEP_LOOKBACK_HOURS),
            finished__lte=now - datetime.timedelta(seconds=SWEEP_GRACE_SECONDS),
            rating_changes__isnull=True,
        )
        .order_by("finished", "id")
        .values_list("id", flat=True)[:200]
    )
    # rate_finished_game skips what is not to be rated (aborted, abandoned) and what a
    # late ordinary task rated meanwhile.
    return sum(1 for game_id in game_ids if rate_finished_game(game_id=game_id))
