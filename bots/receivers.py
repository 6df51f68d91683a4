"""Receivers that let the built-in bots answer: game services → bot tasks (games.signals).

They run inside the service's transaction (see games.signals) and only queue
tasks, after the commit (core.tasks).  Nothing slow happens here: a bot's
thinking is always a task, never part of a web request.  (The event stream and
the ratings subscribe to the same signals in their own apps.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.dispatch import receiver

from accounts.models import Profile
from bots import tasks
from bots.models import BotMatchGame
from bots.services import bot_to_act, engine_of
from games import signals
from games.models import Challenge, Game


def _queue_bot(game: Game, profiles: Mapping[int, Profile] | None = None) -> None:
    if profiles is not None and not _engine_bot_playing(game, profiles):
        return  # neither player is a built-in bot: nothing to ask the database
    acting = bot_to_act(game)
    if acting is not None:
        tasks.queue_bot_move(game.pk, acting[1])


def _engine_bot_playing(game: Game, profiles: Mapping[int, Profile]) -> bool:
    """Whether a player may be a built-in bot (True when a profile is not at hand)."""
    for user_id in (game.white_id, game.black_id):
        profile = profiles.get(user_id)
        if profile is None or (profile.is_bot and profile.bot_engine != ""):
            return True
    return False


@receiver(signals.challenge_created, dispatch_uid="bots.challenge_created")
def on_challenge_created(sender: Any, challenge: Challenge, **kwargs: Any) -> None:
    if challenge.opponent_id is not None and engine_of(challenge.opponent_id):
        tasks.bot_accept_challenge.delay(challenge.pk)


@receiver(signals.game_started, dispatch_uid="bots.game_started")
def on_game_started(sender: Any, game: Game, **kwargs: Any) -> None:
    _queue_bot(game)


@receiver(signals.pie_step, dispatch_uid="bots.pie_setup")
def on_pie_step(sender: Any, game: Game, **kwargs: Any) -> None:
    """Pie openings send no game_started until a colour is chosen: each setup step (the
    placer, then the chooser, must act) is followed here."""
    _queue_bot(game)


@receiver(signals.turn_played, dispatch_uid="bots.turn_played")
def on_turn_played(
    sender: Any,
    game: Game,
    turn: Any,
    profiles: Mapping[int, Profile] | None = None,
    **kwargs: Any,
) -> None:
    _queue_bot(game, profiles)


@receiver(signals.game_finished, dispatch_uid="bots.game_finished")
def on_game_finished(sender: Any, game: Game, **kwargs: Any) -> None:
    # Every finished game asks (few are bot-match games): one indexed read.
    match_id = (
        BotMatchGame.objects.filter(game_id=game.pk)
        .order_by("pk")
        .values_list("match_id", flat=True)
        .first()
    )
    if match_id is not None:
        tasks.advance_bot_match.delay(match_id)
