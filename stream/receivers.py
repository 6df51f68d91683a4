"""Game and challenge changes → Event rows (games.signals, written in the game's transaction).

They run inside the service's transaction (see games.signals), so a user's
events commit, or roll back, with the change they report; nothing here queues
work.  Bots and ratings subscribe to the same signals in their own receivers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.dispatch import receiver

from accounts.models import Profile
from games import signals
from games.models import Challenge, Game
from stream import events
from stream.models import Event


@receiver(signals.challenge_created, dispatch_uid="stream.challenge_created")
def on_challenge_created(sender: Any, challenge: Challenge, **kwargs: Any) -> None:
    events.record_challenge(challenge)


@receiver(signals.game_started, dispatch_uid="stream.game_started")
def on_game_started(sender: Any, game: Game, **kwargs: Any) -> None:
    events.record_game(game, Event.Type.GAME_START)


@receiver(signals.pie_step, dispatch_uid="stream.pie_setup")
def on_pie_step(sender: Any, game: Game, **kwargs: Any) -> None:
    """Pie openings send no game_started until a colour is chosen: each setup step (the
    placer, then the chooser, must act) is followed here."""
    events.record_game(game, Event.Type.GAME_START)


@receiver(signals.turn_played, dispatch_uid="stream.turn_played")
def on_turn_played(
    sender: Any,
    game: Game,
    turn: Any,
    profiles: Mapping[int, Profile] | None = None,
    **kwargs: Any,
) -> None:
    events.record_game(
        game,
        Event.Type.TURN,
        {"turn": {"ply": turn.ply, "text": turn.text, "player": turn.player.get_username()}},
        profiles,
    )
    if game.status == Game.Status.FINISHED and _ended_by_turn(game):
        # After its last turn, see below.
        events.record_game(game, Event.Type.GAME_FINISH, profiles=profiles)


def _ended_by_turn(game: Game) -> bool:
    """The engine ended the game on a turn: play_turn sends game_finished *before*
    turn_played, so the game_finish line is written after the turn's instead."""
    engine_endings = (
        Game.Termination.CAPTURES,
        Game.Termination.ELIMINATION,
        Game.Termination.REPETITION,
    )
    return game.termination in engine_endings and game.ply > 0 and not game.imported


@receiver(signals.game_finished, dispatch_uid="stream.game_finished")
def on_game_finished(
    sender: Any, game: Game, profiles: Mapping[int, Profile] | None = None, **kwargs: Any
) -> None:
    if not _ended_by_turn(game):
        events.record_game(game, Event.Type.GAME_FINISH, profiles=profiles)


@receiver(signals.draw_offer_changed, dispatch_uid="stream.draw_offer_changed")
def on_draw_offer_changed(sender: Any, game: Game, **kwargs: Any) -> None:
    """Page-only: the game pages show the offer; the bots' stream never carried it."""
    events.record_page_change(game, Event.Type.DRAW_OFFER)
