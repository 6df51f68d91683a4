"""A game's clock, read and changed in memory; the caller saves (``CLOCK_FIELDS``).

These work on any object with the clock's fields (``ClockedGame``: games.models.Game
is one; clocks never imports games).  The game services call them while they hold
the game row lock:

* ``start_clock`` when a player's turn begins (game start, pie steps, after a turn):
  the clock runs from `now`, or stays stopped when that player is on vacation;
* ``check_deadline`` before a turn is accepted: a turn at or after the deadline
  is refused, so it can never be both played and timed out (the sweeper claims
  a timeout with ``UPDATE … WHERE deadline <= now`` on the same row);
* ``charge_turn`` once a turn is stored: the mover's time is charged (bank plus
  increment, capped) and the opponent's clock starts;
* ``stop_clock`` when the mover goes on vacation.

``clock_state`` is the read side, for the API and the game page.  The stored
state is: time left on each clock when it last stopped (``white_clock``,
``black_clock``; null = full), when the running clock started (``clock_since``;
null = stopped by vacation) and its ``deadline`` (the instant it reaches zero).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Protocol, TypedDict

from accounts.models import Profile
from clocks.arithmetic import deadline_after, is_weekend, running_seconds
from clocks.errors import TimeExpired
from clocks.timecontrol import TimeControl

CLOCK_FIELDS = ["white_clock", "black_clock", "clock_since", "clock_time_zone", "deadline"]
WHITE = "white"
BLACK = "black"


class ClockedGame(Protocol):
    """What the clock functions need of a game (duck-typed)."""

    white_clock: int | None
    black_clock: int | None
    clock_since: dt.datetime | None
    clock_time_zone: str
    deadline: dt.datetime | None
    vacation_allowed: bool

    @property
    def time_control(self) -> TimeControl: ...

    def color_to_act(self) -> str | None:
        """ "white" or "black" while that player must act; None once the game is over."""

    def who_must_act(self) -> int | None:
        """The user id of that player, or None."""


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


def stored_left(game: ClockedGame, color: str, control: TimeControl | None = None) -> int:
    """Time left on `color`'s clock when it last stopped (full if never started)."""
    value = game.white_clock if color == WHITE else game.black_clock
    if value is None:
        return (control or game.time_control).initial_seconds
    return value


def _set_left(game: ClockedGame, color: str, seconds: int) -> None:
    if color == WHITE:
        game.white_clock = seconds
    else:
        game.black_clock = seconds


def used_seconds(game: ClockedGame, now: dt.datetime, control: TimeControl | None = None) -> int:
    """Running time the mover has used on this turn so far."""
    if game.clock_since is None:
        return 0
    weekend_pause = (control or game.time_control).weekend_pause
    return running_seconds(game.clock_since, now, game.clock_time_zone, weekend_pause=weekend_pause)


def is_stopped_by_vacation(game: ClockedGame, profile: Profile) -> bool:
    return game.vacation_allowed and profile.vacation_started is not None


def start_clock(*, game: ClockedGame, now: dt.datetime, profile: Profile | None = None) -> None:
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
    control = game.time_control
    game.clock_since = now
    game.deadline = deadline_after(
        now,
        stored_left(game, game.color_to_act() or WHITE, control),
        game.clock_time_zone,
        weekend_pause=control.weekend_pause,
    )


def stop_clock(*, game: ClockedGame, now: dt.datetime) -> None:
    """Stop the running clock (vacation begins), keeping the time it has left."""
    color = game.color_to_act()
    if color is None or game.clock_since is None:
        return
    control = game.time_control
    left = stored_left(game, color, control) - used_seconds(game, now, control)
    _set_left(game, color, max(0, left))
    game.clock_since = None
    game.deadline = None


def check_deadline(*, game: ClockedGame, now: dt.datetime) -> None:
    """Refuse a turn that arrives at or after the deadline (call under the row lock)."""
    if game.deadline is not None and now >= game.deadline:
        raise TimeExpired()


def charge_turn(
    *,
    game: ClockedGame,
    color: str,
    now: dt.datetime,
    profiles: Mapping[int, Profile] | None = None,
) -> None:
    """`color` has just played (the game's position already updated): charge, then switch.

    `profiles` (user id → Profile) may hold the players' profiles already loaded.
    """
    control = game.time_control
    left = stored_left(game, color, control)
    _set_left(game, color, control.after_turn(left=left, used=used_seconds(game, now, control)))
    user_id = game.who_must_act()
    start_clock(
        game=game,
        now=now,
        profile=profiles.get(user_id) if profiles and user_id is not None else None,
    )


def clock_state(game: ClockedGame, now: dt.datetime) -> ClockState:
    """Both clocks as they stand at `now`, for display (no database access)."""
    control = game.time_control
    white = stored_left(game, WHITE, control)
    black = stored_left(game, BLACK, control)
    running = game.color_to_act()  # None once the game is over
    paused = True
    if running is not None and game.clock_since is not None:
        left = max(0, stored_left(game, running, control) - used_seconds(game, now, control))
        if running == WHITE:
            white = left
        else:
            black = left
        paused = control.weekend_pause and is_weekend(now, game.clock_time_zone)
    return {
        "kind": control.kind.value,
        "days": control.days,
        "increment_hours": control.increment_hours,
        "weekend_pause": control.weekend_pause,
        "vacation_allowed": game.vacation_allowed,
        "white_remaining": white,
        "black_remaining": black,
        "deadline": game.deadline if running is not None else None,
        "paused": paused,
        "running": running,
    }
