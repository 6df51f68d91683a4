"""A rated game finished → rate it (games.signals.game_finished).

The rating itself is a task (ratings.tasks.rate_game), queued after the game's
transaction commits: a rolled-back finish rates nothing, and the turn that ends
a game does no rating work.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games import signals
from games.models import Game
from ratings import tasks


@receiver(signals.game_finished, dispatch_uid="ratings.game_finished")
def on_game_finished(sender: Any, game: Game, **kwargs: Any) -> None:
    if game.rated:
        tasks.rate_game.delay(game.pk)
