"""Celery tasks of the archive app: the .agn import jobs' slices and the replay checks of
stored games.

They moved here from ``games.tasks`` and keep their registered names
(``games.tasks.verify_game``…): messages already queued under those names, and
the beat schedule (config/settings.py), still find them.  Rules as for every
task: ids only, idempotent (read-only here), time limits, bounded retries.
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from celery import Task, shared_task

logger = logging.getLogger(__name__)


@shared_task(
    name="games.tasks.verify_game",
    bind=True,
    acks_late=True,
    time_limit=60,
    soft_time_limit=50,
    max_retries=3,
    autoretry_for=(ConnectionError,),
    retry_backoff=True,
)
def verify_game(self: Task, game_id: int) -> dict[str, Any]:
    """Replay a game's stored turns through the engine and compare with its cache.

    Queued on demand (finished games are checked by ``verify_recent_games``);
    read-only, so running it twice is harmless.
    Returns a summary (also the result a test reads back).
    """
    from games.models import Game
    from games.services import replay

    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        logger.warning("verify_game: game %s does not exist", game_id)
        return {"game": game_id, "ok": False, "error": "missing"}
    if not game.start_position:
        return {"game": game_id, "ok": True, "ply": 0, "position": ""}
    texts = list(game.turns.order_by("ply").values_list("text", flat=True))
    position = replay(game, texts)
    ok = str(position) == game.position and len(texts) == game.ply
    if not ok:
        logger.error(
            "verify_game: game %s cache %r differs from replay %r",
            game_id,
            game.position,
            str(position),
        )
    return {
        "game": game_id,
        "ok": ok,
        "ply": len(texts),
        "position": str(position),
        "result": game.result,
    }


@shared_task(
    name="games.tasks.verify_recent_games",
    acks_late=True,
    time_limit=600,
    soft_time_limit=550,
    max_retries=0,
)
def verify_recent_games(minutes: int = 30) -> dict[str, Any]:
    """Periodic (beat, every 10 minutes): replay the games finished in the last
    `minutes` (overlapping runs: a missed run loses nothing) and log each mismatch.

    A sweep rather than a message per finished game: no work on the turn that ends
    a game, and no check lost with a message.
    """
    from django.utils import timezone

    from archive.verification import verify_games

    report = verify_games(finished_since=timezone.now() - datetime.timedelta(minutes=minutes))
    return {
        "checked": report.checked,
        "mismatches": [str(mismatch) for mismatch in report.mismatches],
    }


@shared_task(
    name="games.tasks.verify_all_games",
    acks_late=True,
    # Below the broker's visibility timeout (an hour by default), like every task.
    time_limit=3000,
    soft_time_limit=2900,
    max_retries=0,
)
def verify_all_games() -> dict[str, Any]:
    """Periodic (beat): replay every stored game and log each mismatch (read-only)."""
    from archive.verification import verify_games

    report = verify_games()
    return {
        "checked": report.checked,
        "mismatches": [str(mismatch) for mismatch in report.mismatches],
    }


@shared_task(
    name="archive.tasks.run_import_job",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    # A slice is about JOBS_SLICE_SECONDS (at most 120), plus reading a whole file in the
    # first; far below the broker's visibility timeout.  No retries: a failed slice
    # counts as an attempt of its job (core.jobs), which waits its turn again.
    time_limit=300,
    soft_time_limit=280,
)
def run_import_job(self: Task, job_id: int, slice_number: int) -> str:
    """One slice of an .agn import job (archive.imports.import_slice), sent by the fair
    queue (core.jobs) as ``(job id, slice number)``.  Resumable and idempotent: it goes on
    after the last committed chunk, and a game already stored is reported as such."""
    from core.jobs import run_slice

    return run_slice(job_id, slice_number)
