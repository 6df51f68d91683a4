"""Celery tasks that run tournaments.

Thin: they take ids and call ``tournaments.services``, whose guarded state
changes make them idempotent (a round is paired exactly once however often, or
concurrently, a task runs).  Queued after commit (core.tasks.AfterCommitTask);
``acks_late`` with reject-on-worker-lost means a worker killed mid-way has its
message redelivered, and the rolled-back transaction is simply redone.
"""

from __future__ import annotations

import logging

from celery import shared_task

logger = logging.getLogger(__name__)

_OPTIONS = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "time_limit": 300,
    "soft_time_limit": 270,
    "max_retries": 3,
    "autoretry_for": (ConnectionError,),
    "retry_backoff": True,
}
# Every task that may pair a round or create a round's games runs under these limits,
# whoever queued it (the organiser's start, a finished game, the heartbeat's safety net,
# the arbiter): a 1,000-player Swiss round takes 15-34 s on the 2-core machine, and
# several minutes while it is loaded (docs/tournaments.md).  The one home of that limit.
PAIRING = {**_OPTIONS, "time_limit": 900, "soft_time_limit": 850}


@shared_task(**PAIRING)
def start_tournament_task(tournament_id: int) -> str:
    """The start asked for on the page, the API or by the schedule: rank the players and
    pair round 1 ("started", "refused": back in registration with the reason, "idle")."""
    from tournaments.services import run_start, start_failed

    try:
        outcome = run_start(tournament_id=tournament_id)
    except ConnectionError:
        raise  # retried (autoretry_for); the heartbeat queues a lost start again
    except Exception:
        # A time limit or a bug: the organiser sees that the start failed, never a
        # tournament "starting" for ever.
        logger.exception("start_tournament %s failed", tournament_id)
        start_failed(tournament_id=tournament_id)
        raise
    logger.info("start_tournament %s: %s", tournament_id, outcome)
    return outcome


@shared_task(**PAIRING)
def advance_tournament(tournament_id: int) -> str:
    """Pair the next round or finish, if the current round is over ("paired", "finished"…)."""
    from tournaments.services import advance

    outcome = advance(tournament_id=tournament_id)
    logger.info("advance_tournament %s: %s", tournament_id, outcome)
    return outcome


@shared_task(**PAIRING)
def pair_round_task(tournament_id: int, round_number: int) -> bool:
    """Pair one given round; False when it was already paired (or is not due)."""
    from tournaments.services import pair_round

    return pair_round(tournament_id=tournament_id, round_number=round_number) is not None


@shared_task(**PAIRING)
def pair_opening_rounds_task(tournament_id: int, last: int) -> int:
    """The pairing of a league division started by its season's job (rounds 1..last)."""
    from tournaments.services import pair_opening_rounds

    return pair_opening_rounds(tournament_id=tournament_id, last=last)


@shared_task(**_OPTIONS)
def tournament_heartbeat() -> dict[str, list[int]]:
    """Beat task: start tournaments at their time; advance any whose round is over.

    It only reads and queues: every start, pairing and season runs in its own task
    under that task's limits (``PAIRING`` for whatever pairs), as when the organiser
    or a finished game queues it.  Advancing here is the safety net for a lost
    message (the game-finished receiver normally queues ``advance_tournament``, the
    start job pairs round 1), and so is queueing a lost start job again.
    """
    from tournaments.leagues import seasons_to_finish
    from tournaments.services import (
        requeue_lost_starts,
        running_tournaments_to_advance,
        start_due_tournaments,
    )

    started = start_due_tournaments()
    restarted = requeue_lost_starts()
    waiting = running_tournaments_to_advance()
    for tournament_id in waiting:
        advance_tournament.delay(tournament_id)
    seasons = seasons_to_finish()
    for season_id in seasons:
        finish_season_task.delay(season_id)
    return {"started": started, "restarted": restarted, "advanced": waiting, "seasons": seasons}


@shared_task(**PAIRING)
def finish_season_task(season_id: int) -> str:
    """A league season whose divisions are over: close it and start the next one."""
    from tournaments.leagues import finish_season

    outcome = finish_season(season_id=season_id)
    logger.info("finish_season %s: %s", season_id, outcome)
    return outcome


@shared_task(**PAIRING)
def publish_round_task(tournament_id: int, number: int) -> bool:
    """Arbiter control: create the games of a published draft round (exactly once)."""
    from tournaments.arbiter import publish_now

    return publish_now(tournament_id=tournament_id, number=number) is not None


@shared_task(**PAIRING)
def import_trf_task(import_id: int) -> str:
    """Create a Swiss from an uploaded TRF-16 file ("done", "failed")."""
    from tournaments.trf_import import run_import

    job = run_import(import_id=import_id)
    return job.status if job is not None else "missing"
