"""Celery tasks of the analysis app (``analysis.tasks.*``: routed to the ``analysis``
queue by the platform's routing table, so a long analysis never delays a bot's reply;
the analysis board's evaluations to the ``evaluations`` queue).

* analyse_game — one slice of a game's analysis job, evaluate_position — an analysis
  board's evaluation job: both jobs of the fair queue (core.jobs), which sends them
  (``(job id, slice number)``) when a slot is free; a slice resumes after the last stored
  position.  ``acks_late`` with ``reject_on_worker_lost``: a pool process killed mid-slice
  leaves its message to be delivered again; a whole worker lost is the sweep's business
  (core.tasks.sweep_jobs).
* index_games / index_unindexed_games — the opening explorer's index (analysis.explorer).
"""

from __future__ import annotations

from celery import Task, shared_task
from django.db import OperationalError


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    # A slice is about JOBS_SLICE_SECONDS (at most 120) plus one position; far below the
    # broker's visibility timeout.  No retries: a failed slice counts as an attempt of
    # its job (core.jobs), which waits its turn again.
    time_limit=300,
    soft_time_limit=280,
)
def analyse_game(self: Task, job_id: int, slice_number: int) -> str:
    """One slice of a game's analysis (analysis.services.analysis_slice)."""
    from core.jobs import run_slice

    return run_slice(job_id, slice_number)


@shared_task(bind=True, acks_late=True, time_limit=30, soft_time_limit=25)
def evaluate_position(self: Task, job_id: int, slice_number: int) -> str:
    """The engine's evaluation, best turn and principal variation of one position: an
    evaluation job's one slice (analysis.services.evaluation_slice; the verdict is stored
    on the job)."""
    from core.jobs import run_slice

    return run_slice(job_id, slice_number)


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
