"""Celery tasks of the games app (the rules every task follows: core.tasks)."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task

logger = logging.getLogger(__name__)


@shared_task(acks_late=True, time_limit=10, soft_time_limit=8, max_retries=3, default_retry_delay=2)
def ping() -> str:
    """Liveness probe of the worker: answers "pong"."""
    return "pong"


@shared_task(acks_late=True, time_limit=240, soft_time_limit=200, expires=120)
def sweep_clocks() -> dict[str, Any]:
    """Run by Celery beat every minute (config/settings.py): end due vacations, expire
    run-out clocks, warn low ones.

    Thin and idempotent: games.timekeeping.sweep claims every timeout with a guarded
    UPDATE, so a second beat scheduler or a redelivered message changes nothing.
    """
    from games.timekeeping import sweep

    return sweep().as_dict()


@shared_task(acks_late=True, time_limit=60, soft_time_limit=50, max_retries=3)
def expire_game(game_id: int) -> str:
    """Expire one game now if its clock has run out (e.g. after expire_clock)."""
    from games import timekeeping

    return timekeeping.expire_game(game_id=game_id)
