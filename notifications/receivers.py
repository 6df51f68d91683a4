"""Game events → notifications (games.signals; inside the game's transaction), and the
notices other apps send (core.notices: tournaments)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.dispatch import receiver

from accounts.models import Profile
from core import notices
from games import signals
from games.models import Challenge, Color, Game
from notifications.models import Kind, Notification
from notifications.services import mark_game_read, notify, opponent_name


def _your_turn(
    game: Game,
    profiles: Mapping[int, Profile] | None = None,
    automatic_turn: str = "",
    seen_by: Any = None,
) -> None:
    """`automatic_turn`: the opponent's turn just played from their conditional lines;
    `seen_by`: a user who has seen the game (its notices to them are read)."""
    user_id = game.who_must_act()
    if user_id is None:
        if seen_by is not None:
            mark_game_read(user=seen_by, game=game)
        return
    user = game.white if user_id == game.white_id else game.black
    params = {"opponent": opponent_name(game, user_id)}
    if automatic_turn:
        params["automatic_turn"] = automatic_turn
    notify(
        user=user,
        kind=Kind.YOUR_TURN,
        game=game,
        params=params,
        profile=(profiles or {}).get(user_id),
        seen_by=seen_by,
    )


@receiver(signals.game_started)
def game_started(sender: Any, game: Game, **kwargs: Any) -> None:
    _your_turn(game)


@receiver(signals.turn_played)
def turn_played(
    sender: Any,
    game: Game,
    turn: Any = None,
    profiles: Mapping[int, Profile] | None = None,
    reply_follows: bool = False,
    **kwargs: Any,
) -> None:
    # The mover has seen the game: what we told them about it is read (not so for a
    # conditional reply played for them while they were away) — with the opponent's
    # "your turn" when there is one (one statement, notifications.services.notify).
    mover = turn.player if turn is not None and not turn.automatic else None
    # reply_follows: the next player's conditional reply is played at once, so they
    # are not told it is their turn; the reply's own signal tells their opponent.
    if game.status != Game.Status.FINISHED and not reply_follows:
        automatic = turn.text if turn is not None and turn.automatic else ""
        _your_turn(game, profiles, automatic_turn=automatic, seen_by=mover)
    elif mover is not None:
        mark_game_read(user=mover, game=game)


@receiver(signals.pie_step)
def pie_step(sender: Any, game: Game, **kwargs: Any) -> None:
    """The placer (then the chooser) must act: tell them, as for a turn."""
    step = game.pie_step()
    if step is not None and step.action == "choose":
        # The placer (the chooser's opponent) just placed: their notices about it are read.
        mark_game_read(user=game.black if step.color == Color.WHITE else game.white, game=game)
    _your_turn(game)


@receiver(notices.notice)
def notice(
    sender: Any,
    user: Any,
    kind: str,
    params: dict[str, Any] | None = None,
    url: str = "",
    dedupe_key: str = "",
    game: Game | None = None,
    **kwargs: Any,
) -> None:
    notify(user=user, kind=kind, params=params, url=url, dedupe_key=dedupe_key, game=game)


@receiver(signals.game_opened)
def game_opened(sender: Any, game: Game, user: Any, **kwargs: Any) -> None:
    mark_game_read(user=user, game=game)


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
    if challenge.opponent is None:
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
            "increment_hours": int(challenge.time_control.increment_hours),
            "weekend_pause": challenge.weekend_pause,
        },
        url="/lobby/",
    )


# --- Clocks (games.timekeeping) ------------------------------------------------------------


@receiver(signals.auto_vacation)
def auto_vacation(
    sender: Any, game: Game, user: Any, days_left: int, now: Any = None, **kwargs: Any
) -> None:
    notify(user=user, kind=Kind.AUTO_VACATION, game=game, params={"days_left": days_left}, now=now)


@receiver(signals.time_running_low)
def time_running_low(sender: Any, warnings: list[Any], now: Any = None, **kwargs: Any) -> int:
    """Tell each mover once per turn that under 24 hours are left; returns how many."""
    pending = {warning.key: warning for warning in warnings}
    # Warned already (an earlier sweep): skip without trying to insert again.
    for key in Notification.objects.filter(
        kind=Kind.LOW_TIME, dedupe_key__in=list(pending)
    ).values_list("dedupe_key", flat=True):
        pending.pop(key, None)
    warned = 0
    for key, warning in pending.items():
        game = warning.game
        user = game.white if warning.user_id == game.white_id else game.black
        with transaction.atomic():
            # The unique (user, dedupe_key) still decides between two racing sweepers.
            created = notify(
                user=user,
                kind=Kind.LOW_TIME,
                game=game,
                params={"opponent": opponent_name(game, warning.user_id)},
                dedupe_key=key,
                now=now,
            )
        warned += created is not None
    return warned
