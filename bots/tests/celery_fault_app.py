"""The project's Celery app with a fault injected into bot moves, for crash tests only.

Started as ``celery -A bots.tests.celery_fault_app worker`` by
test_worker_crash.py.  ``ADAPTOID_FAULT`` names where the task stops
to let the test kill the worker, the first time only:

* ``think`` — while the bot is choosing its turn (nothing stored yet);
* ``stored`` — right after the turn was committed, before the task returns (so
  before the broker is told the task is done).

Each event is appended to the ``ADAPTOID_FAULT_LOG`` file as ``<event> <pid>``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from celery.signals import task_prerun

from config.celery import app

__all__ = ["app"]

FAULT = os.environ.get("ADAPTOID_FAULT", "")
LOG = Path(os.environ.get("ADAPTOID_FAULT_LOG", "/dev/null"))
PAUSE_SECONDS = 60.0  # far longer than the test waits: the worker dies in it


def _record(event: str) -> bool:
    """Append the event; True if it is the first of its kind (then pause there)."""
    first = not (
        LOG.exists() and any(line.startswith(event) for line in LOG.read_text().split("\n"))
    )
    with LOG.open("a") as handle:
        handle.write(f"{event} {os.getpid()}\n")
    return first


def _install() -> None:
    from bots import services as bots
    from games import services

    if getattr(bots, "_fault_installed", False):
        return
    bots._fault_installed = True  # type: ignore[attr-defined]
    real_get_player = bots.get_engine_player
    real_play_turn = services.play_turn

    class Thinking:
        def __init__(self, player: Any) -> None:
            self.player = player

        def choose(self, position: Any, *, seconds: float) -> Any:
            if _record("think") and FAULT == "think":
                time.sleep(PAUSE_SECONDS)
            return self.player.choose(position, seconds=seconds)

    def get_engine_player(*args: Any, **kwargs: Any) -> Any:
        return Thinking(real_get_player(*args, **kwargs))

    def play_turn(**kwargs: Any) -> Any:
        result = real_play_turn(**kwargs)
        if _record("stored") and FAULT == "stored":
            time.sleep(PAUSE_SECONDS)
        return result

    bots.get_engine_player = get_engine_player  # type: ignore[assignment]
    bots.services.play_turn = play_turn  # type: ignore[assignment]


@task_prerun.connect
def _before_each_task(**kwargs: Any) -> None:
    _install()  # in the process that runs tasks (a prefork child, or the solo worker)
