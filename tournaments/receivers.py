"""Tournaments listen to the games app instead of changing its services."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished


@receiver(game_finished, sender=Game, dispatch_uid="tournaments.record_game_result")
def score_tournament_game(sender: Any, game: Game, **kwargs: Any) -> None:
    # Inside the game's transaction: the board's outcome commits with the result,
    # and the next-round task is queued only once both are committed.
    from tournaments.services import record_game_result

    record_game_result(game=game)
