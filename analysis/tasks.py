"""Celery tasks of the analysis app (``analysis.tasks.*``: routed to the ``analysis``
queue by the platform's routing table, so a long analysis never delays a bot's reply).

* analyse_game — a game's computer analysis, resumable: each position is committed as it
  is analysed, and a run that starts again skips those already stored.  ``acks_late``
  with ``reject_on_worker_lost``: a worker killed mid-job leaves its message
  unacknowledged and the job is delivered again.
* evaluate_position — one position for the analysis board (a short job).
* index_games / index_unindexed_games — the opening explorer's index (analysis.explorer).
"""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task
from django.db import OperationalError


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    # A long game at the full node budget takes minutes; the broker's visibility
    # timeout (an hour by default) must stay above this.
    time_limit=1800,
    soft_time_limit=1780,
    autoretry_for=(OperationalError, ConnectionError),
    max_retries=3,
    retry_backoff=True,
)
def analyse_game(self: Task, analysis_id: int) -> int:
    """Analyse the game's positions not stored yet; returns how many this run stored."""
    from analysis.services import run_analysis

    return run_analysis(analysis_id)


@shared_task(bind=True, acks_late=True, time_limit=30, soft_time_limit=25)
def evaluate_position(self: Task, position: str, nodes: int | None = None) -> dict[str, Any]:
    """The engine's evaluation, best turn and principal variation of one position."""
    from analysis.services import evaluate_position_now

    return evaluate_position_now(position, nodes)


@shared_task(
    bind=True,
    acks_late=True,
    time_limit=300,
    soft_time_limit=280,
    autoretry_for=(OperationalError, ConnectionError),
    max_retries=3,
    retry_backoff=True,
)
def index_games(self: Task, game_ids: list[int]) -> int:
    """Add finished games to the opening explorer (each game once, however often run)."""
    from analysis.explorer import index_games as index

    return index(game_ids)


# Below the broker's visibility timeout (an hour by default), like every task.
@shared_task(bind=True, acks_late=True, time_limit=3000, soft_time_limit=2900)
def index_unindexed_games(self: Task) -> int:
    """The explorer's catch-up: every finished game not indexed yet, in batches (the
    backfill of games finished before the explorer existed, or whose job was lost)."""
    from analysis.explorer import index_unindexed

    return index_unindexed()
