"""The clock sweeper, run by Celery beat every minute (config/settings.py).

Thin and idempotent: clocks.services.sweep claims every timeout with a guarded
UPDATE, so a second beat scheduler or a redelivered message changes nothing.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task


@shared_task(acks_late=True, time_limit=240, soft_time_limit=200, expires=120)
def sweep_clocks() -> dict[str, Any]:
    from clocks.services import sweep

    return sweep().as_dict()


@shared_task(acks_late=True, time_limit=60, soft_time_limit=50, max_retries=3)
def expire_game(game_id: int) -> str:
    """Expire one game now if its clock has run out (e.g. after expire_clock)."""
    from clocks import services

    return services.expire_game(game_id=game_id)
