"""Receivers that connect bots, ratings and the event stream to the game services.

They run inside the service's transaction (see games.signals): Event rows
commit with the change they report, and tasks are queued only after the commit
(queued after the commit: core.tasks).  Nothing slow happens here: a bot's thinking is always a task,
never part of a web request.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import Profile
from games import bot_tasks, events, signals
from games.bots import bot_to_act
from games.models import BotMatchGame, Challenge, Event, Game


def _queue_bot(game: Game, profiles: Mapping[int, Profile] | None = None) -> None:
    if profiles is not None and not _engine_bot_playing(game, profiles):
        return  # neither player is a built-in bot: nothing to ask the database
    acting = bot_to_act(game)
    if acting is not None:
        bot_tasks.bot_move.delay(game.pk, acting[1])


def _engine_bot_playing(game: Game, profiles: Mapping[int, Profile]) -> bool:
    """Whether a player may be a built-in bot (True when a profile is not at hand)."""
    for user_id in (game.white_id, game.black_id):
        profile = profiles.get(user_id)
        if profile is None or (profile.is_bot and profile.bot_engine != ""):
            return True
    return False


@receiver(signals.challenge_created, dispatch_uid="bots.challenge_created")
def on_challenge_created(sender: Any, challenge: Challenge, **kwargs: Any) -> None:
    events.record_challenge(challenge)
    if challenge.opponent_id is not None:
        from games.bots import engine_of

        if engine_of(challenge.opponent_id):
            bot_tasks.bot_accept_challenge.delay(challenge.pk)


@receiver(signals.game_started, dispatch_uid="bots.game_started")
def on_game_started(sender: Any, game: Game, **kwargs: Any) -> None:
    events.record_game(game, Event.Type.GAME_START)
    _queue_bot(game)


@receiver(post_save, sender=Game, dispatch_uid="bots.pie_setup")
def on_pie_setup(
    sender: Any, instance: Game, created: bool, update_fields: Any = None, **kwargs: Any
) -> None:
    """Pie openings send no game_started until a colour is chosen: follow the setup here.

    A new game in setup (its placer must act) and a game whose adaptoids were just
    placed (its chooser must act) are reported as ``game_start`` and, when a
    built-in bot must act, queued for it.
    """
    if instance.status != Game.Status.SETUP:
        return
    placed = update_fields is not None and "start_position" in update_fields
    if created or placed:
        events.record_game(instance, Event.Type.GAME_START)
        _queue_bot(instance)


@receiver(signals.turn_played, dispatch_uid="bots.turn_played")
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
    _queue_bot(game, profiles)


def _ended_by_turn(game: Game) -> bool:
    """The engine ended the game on a turn: play_turn sends game_finished *before*
    turn_played, so the game_finish line is written after the turn's instead."""
    engine_endings = (
        Game.Termination.CAPTURES,
        Game.Termination.ELIMINATION,
        Game.Termination.REPETITION,
    )
    return game.termination in engine_endings and game.ply > 0 and not game.imported


@receiver(signals.game_finished, dispatch_uid="bots.game_finished")
def on_game_finished(
    sender: Any, game: Game, profiles: Mapping[int, Profile] | None = None, **kwargs: Any
) -> None:
    if not _ended_by_turn(game):
        events.record_game(game, Event.Type.GAME_FINISH, profiles=profiles)
    if game.rated:
        bot_tasks.rate_game.delay(game.pk)
    match_id = (
        BotMatchGame.objects.filter(game_id=game.pk)
        .order_by("pk")
        .values_list("match_id", flat=True)
        .first()
    )
    if match_id is not None:
        bot_tasks.advance_bot_match.delay(match_id)
