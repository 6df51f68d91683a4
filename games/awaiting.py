"""The games waiting for a player's action: a turn, a pie placement or a colour choice.

``Game.who_must_act`` stays the one answer to "who must act"; this module only asks
it for each of the player's running games (a player has tens of them, not
thousands) and orders them by urgency: the nearest deadline first, games without a
running clock (vacation) last.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from games.models import Game

RUNNING = (Game.Status.ACTIVE, Game.Status.SETUP)
# What who_must_act reads: enough for the header's count on every page.
_ACT_FIELDS = ("id", "status", "position", "start_position", "white_id", "black_id", "deadline")
_NO_DEADLINE = dt.datetime.max.replace(tzinfo=dt.UTC)


def running_games(user: User) -> QuerySet[Game]:
    return Game.objects.filter(Q(white=user) | Q(black=user), status__in=RUNNING)


def _urgency(game: Game) -> tuple[dt.datetime, int]:
    return (game.deadline or _NO_DEADLINE, game.pk)


def games_awaiting(user: User) -> list[Game]:
    """The user's games where they must act now, most urgent deadline first."""
    if not user.is_authenticated:
        return []
    games = running_games(user).select_related("white__profile", "black__profile")
    return sorted((g for g in games if g.who_must_act() == user.pk), key=_urgency)


def awaiting_count(user: User) -> int:
    """How many games wait for the user (the header's count and the title's "(N) ")."""
    if not user.is_authenticated:
        return 0
    return sum(1 for g in running_games(user).only(*_ACT_FIELDS) if g.who_must_act() == user.pk)


def action_needed(game: Game) -> str:
    """What the player to act must do: "turn", "place" (pie) or "choose" (pie colour)."""
    step = game.pie_step()
    return step.action if step is not None else "turn"
