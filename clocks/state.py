"""A game's clock, read and changed in memory; the caller saves (``CLOCK_FIELDS``).

The game services call these while they hold the game row lock:

* ``start_clock`` when a player's turn begins (game start, pie steps, after a turn):
  the clock runs from `now`, or stays stopped when that player is on vacation;
* ``check_deadline`` before a turn is accepted: a turn at or after the deadline
  is refused, so it can never be both played and timed out (the sweeper claims
  a timeout with ``UPDATE … WHERE deadline <= now`` on the same row);
* ``charge_turn`` once a turn is stored: the mover's time is charged (bank plus
  increment, capped) and the opponent's clock starts.

``clock_state`` is the read side, for the API and the game page.  The stored
state is: time left on each clock when it last stopped (``white_clock``,
``black_clock``; null = full), when the running clock started (``clock_since``;
null = stopped by vacation) and its ``deadline`` (the instant it reaches zero).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any, TypedDict

from accounts.models import Profile
from clocks.arithmetic import DAY, HOUR, after_turn, deadline_after, is_weekend, running_seconds
from games import errors
from games.models import ClockKind, Color, Game

CLOCK_FIELDS = ["white_clock", "black_clock", "clock_since", "clock_time_zone", "deadline"]
RUNNING = (Game.Status.ACTIVE, Game.Status.SETUP)


class ClockState(TypedDict):
    kind: str
    days: int
    increment_hours: float
    weekend_pause: bool
    vacation_allowed: bool
    white_remaining: int
    black_remaining: int
    deadline: dt.datetime | None
    paused: bool
    running: str | None


def initial_seconds(game: Game) -> int:
    return game.days_per_turn * DAY


def stored_left(game: Game, color: str) -> int:
    """Time left on `color`'s clock when it last stopped (full if never started)."""
    value = game.white_clock if color == Color.WHITE else game.black_clock
    return initial_seconds(game) if value is None else value


def _set_left(game: Game, color: str, seconds: int) -> None:
    if color == Color.WHITE:
        game.white_clock = seconds
    else:
        game.black_clock = seconds


def used_seconds(game: Game, now: dt.datetime) -> int:
    """Running time the mover has used on this turn so far."""
    if game.clock_since is None:
        return 0
    return running_seconds(
        game.clock_since, now, game.clock_time_zone, weekend_pause=game.weekend_pause
    )


def is_stopped_by_vacation(game: Game, profile: Profile) -> bool:
    return game.vacation_allowed and profile.vacation_started is not None


def start_clock(*, game: Game, now: dt.datetime, profile: Profile | None = None) -> None:
    """Start the clock of the player whose turn it now is (or keep it stopped: vacation).

    `profile` is that player's profile when the caller already has it.
    """
    user_id = game.who_must_act()
    if user_id is None:
        game.clock_since = None
        game.deadline = None
        return
    if profile is None or profile.user_id != user_id:
        # A user loaded without signals (fixtures) may lack a profile: defaults then.
        profile = Profile.objects.filter(user_id=user_id).first() or Profile(user_id=user_id)
    # The turn's weekends are counted in the zone the player had when it began.
    game.clock_time_zone = profile.time_zone
    if is_stopped_by_vacation(game, profile):
        game.clock_since = None
        game.deadline = None
        return
    game.clock_since = now
    game.deadline = deadline_after(
        now,
        stored_left(game, game.color_to_act() or Color.WHITE),
        game.clock_time_zone,
        weekend_pause=game.weekend_pause,
    )


def stop_clock(*, game: Game, now: dt.datetime) -> None:
    """Stop the running clock (vacation begins), keeping the time it has left."""
    color = game.color_to_act()
    if color is None or game.clock_since is None:
        return
    _set_left(game, color, max(0, stored_left(game, color) - used_seconds(game, now)))
    game.clock_since = None
    game.deadline = None


def check_deadline(*, game: Game, now: dt.datetime) -> None:
    """Refuse a turn that arrives at or after the deadline (call under the row lock)."""
    if game.deadline is not None and now >= game.deadline:
        raise errors.TimeExpired()


def charge_turn(
    *, game: Game, color: str, now: dt.datetime, profiles: Mapping[int, Profile] | None = None
) -> None:
    """`color` has just played (game.position already updated): charge, then switch.

    `profiles` (user id → Profile) may hold the players' profiles already loaded.
    """
    left = stored_left(game, color)
    _set_left(
        game,
        color,
        after_turn(
            kind=game.clock_kind,
            left=left,
            used=used_seconds(game, now),
            initial=initial_seconds(game),
            increment=game.clock_increment,
        ),
    )
    user_id = game.who_must_act()
    start_clock(
        game=game,
        now=now,
        profile=profiles.get(user_id) if profiles and user_id is not None else None,
    )


def clock_state(game: Game, now: dt.datetime) -> ClockState:
    """Both clocks as they stand at `now`, for display (no database access)."""
    white = stored_left(game, Color.WHITE)
    black = stored_left(game, Color.BLACK)
    running = game.color_to_act() if game.status in RUNNING else None
    paused = True
    if running is not None and game.clock_since is not None:
        left = max(0, stored_left(game, running) - used_seconds(game, now))
        if running == Color.WHITE:
            white = left
        else:
            black = left
        paused = game.weekend_pause and is_weekend(now, game.clock_time_zone)
    return {
        "kind": game.clock_kind,
        "days": game.days_per_turn,
        "increment_hours": game.clock_increment / HOUR,
        "weekend_pause": game.weekend_pause,
        "vacation_allowed": game.vacation_allowed,
        "white_remaining": white,
        "black_remaining": black,
        "deadline": game.deadline if game.status in RUNNING else None,
        "paused": paused,
        "running": running,
    }


def clock_options(
    *, kind: str, increment_hours: int, weekend_pause: bool, vacation_allowed: bool
) -> dict[str, Any]:
    """Game model fields for a time control (`days` is the game's days_per_turn)."""
    return {
        "clock_kind": kind,
        "clock_increment": increment_hours * HOUR if kind == ClockKind.BANK else 0,
        "weekend_pause": weekend_pause,
        "vacation_allowed": vacation_allowed,
    }


PER_TURN_DAYS = (1, 2, 3, 5, 7, 10, 14)
MAX_BANK_DAYS = 30  # as games.services.MAX_DAYS_PER_TURN
MAX_INCREMENT_HOURS = 240


def time_control_errors(
    *, kind: str, days: int, increment_hours: int, strict_days: bool = True
) -> dict[str, list[str]]:
    """Field errors of a time control ({} when valid).

    `strict_days` holds per-turn clocks to the usual choices (1, 2, 3, 5, 7, 10,
    14 days); the older `days_per_turn` API field keeps accepting any whole number
    of days up to games.services.MAX_DAYS_PER_TURN, checked by its caller.
    """
    from django.utils.translation import gettext as _

    problems: dict[str, list[str]] = {}

    def whole(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    if kind not in ClockKind.values:
        problems["clock_kind"] = [_("Choose per_turn or bank.")]
        return problems
    if kind == ClockKind.PER_TURN:
        if strict_days and days not in PER_TURN_DAYS:
            problems["days"] = [
                _("Days per turn must be one of %(choices)s.")
                % {"choices": ", ".join(map(str, PER_TURN_DAYS))}
            ]
        if whole(increment_hours) and increment_hours != 0:
            problems["increment_hours"] = [_("Only a time bank has an increment.")]
    else:
        if not whole(days) or not 1 <= days <= MAX_BANK_DAYS:
            problems["days"] = [
                _("The time bank must be a whole number of days from 1 to %(max)d.")
                % {"max": MAX_BANK_DAYS}
            ]
    if not whole(increment_hours) or not 0 <= increment_hours <= MAX_INCREMENT_HOURS:
        problems["increment_hours"] = [
            _("The increment must be a whole number of hours from 0 to %(max)d.")
            % {"max": MAX_INCREMENT_HOURS}
        ]
    return problems
