"""A game finished → the opening explorer indexes it (games.signals.game_finished).

The indexing is a task, queued after the game's transaction commits: the turn that
ends a game does no explorer work, and a rolled-back finish indexes nothing.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.dispatch import receiver

from analysis import tasks
from games import signals
from games.models import Game


@receiver(signals.game_finished, dispatch_uid="analysis.game_finished")
def on_game_finished(sender: Any, game: Game, **kwargs: Any) -> None:
    if settings.EXPLORER_INDEX_ON_FINISH:  # the hourly catch-up indexes it otherwise
        tasks.index_games.delay([game.pk])
