"""Celery tasks of the archive app: the .agn import jobs and the replay checks of stored games.

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
from django.db import OperationalError

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
    # Under the broker's visibility timeout (config/settings.py): a running import
    # is never handed out a second time while it still runs.
    time_limit=1200,
    soft_time_limit=1100,
    max_retries=3,
)
def run_import_job(self: Task, job_id: int) -> str:
    """Run or resume one .agn import job (archive.imports.run_job); returns its status.

    Resumable and idempotent: a redelivered message or a retry after a deadlock goes on
    after the last committed chunk, and a game already stored is reported as such.
    """
    from archive import imports

    try:
        return imports.run_job(job_id=job_id)
    except (OperationalError, ConnectionError) as exc:
        # A deadlock between two jobs storing the same games, a restarted database.
        if self.request.retries < self.max_retries:
            raise self.retry(exc=exc, countdown=2**self.request.retries) from exc
        imports.fail_job(job_id=job_id)
        raise
    except Exception:
        imports.fail_job(job_id=job_id)
        raise


@shared_task(
    name="archive.tasks.sweep_import_jobs",
    acks_late=True,
    # Both limits, always: a soft limit inherited from the settings (100 s) above this
    # hard one made Celery refuse to send the task at all.
    time_limit=60,
    soft_time_limit=50,
    max_retries=0,
)
def sweep_import_jobs(quiet_minutes: int = 10) -> list[int]:
    """Beat: queue again the import jobs a lost message or a dead worker left waiting
    (queued or running, unchanged for `quiet_minutes`); resuming is safe."""
    from django.utils import timezone

    from archive.models import ImportJob

    quiet = timezone.now() - datetime.timedelta(minutes=quiet_minutes)
    stale = list(
        ImportJob.objects.filter(status__in=ImportJob.ACTIVE, updated__lt=quiet).values_list(
            "pk", flat=True
        )
    )
    for job_id in stale:
        run_import_job.delay(job_id)
    return stale
