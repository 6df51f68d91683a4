"""Game events → notifications (games.signals; inside the game's transaction)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.dispatch import receiver

from accounts.models import Profile
from games import signals
from games.models import Challenge, Game
from notifications.models import Kind
from notifications.services import notify, opponent_name


def _your_turn(game: Game, profiles: Mapping[int, Profile] | None = None) -> None:

    user_id = game.who_must_act()
    if user_id is None:
        return
    user = game.white if user_id == game.white_id else game.black
    notify(
        user=user,
        kind=Kind.YOUR_TURN,
        game=game,
        params={"opponent": opponent_name(game, user_id)},
        profile=(profiles or {}).get(user_id),
    )


@receiver(signals.game_started)
def game_started(sender: Any, game: Game, **kwargs: Any) -> None:
    _your_turn(game)


@receiver(signals.turn_played)
def turn_played(
    sender: Any, game: Game, profiles: Mapping[int, Profile] | None = None, **kwargs: Any
) -> None:
    if game.status != Game.Status.FINISHED:
        _your_turn(game, profiles)


@receiver(signals.game_finished)
def game_finished(
    sender: Any, game: Game, profiles: Mapping[int, Profile] | None = None, **kwargs: Any
) -> None:
    for user in (game.white, game.black):
        notify(
            user=user,
            kind=Kind.GAME_OVER,
            game=game,
            params={
                "opponent": opponent_name(game, user.pk),
                "result": game.result,
                "termination": game.termination,
            },
            dedupe_key=f"game_over:{game.pk}",
            profile=(profiles or {}).get(user.pk),
        )


@receiver(signals.challenge_created)
def challenge_created(sender: Any, challenge: Challenge, **kwargs: Any) -> None:
    if challenge.opponent_id is None:
        return  # an open challenge is addressed to nobody in particular
    notify(
        user=challenge.opponent,
        kind=Kind.CHALLENGE,
        params={
            "challenger": challenge.created_by.get_username(),
            "challenge": challenge.pk,
            # Raw values: Notification.message words them in the reader's language.
            "clock_kind": challenge.clock_kind,
            "days": challenge.days_per_turn,
            "increment_hours": challenge.increment_hours,
            "weekend_pause": challenge.weekend_pause,
        },
        url="/lobby/",
    )
