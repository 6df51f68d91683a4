"""The clock state functions on any object with the clock's fields (no games import).

A small stand-in game says who must act; the clocks start, stop, charge, refuse
late turns and read back exactly as on a games.models.Game.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest

from accounts.models import Profile
from clocks import state
from clocks.arithmetic import DAY, HOUR
from clocks.errors import TimeExpired
from clocks.timecontrol import TimeControl

FRIDAY_NOON = dt.datetime(2026, 11, 27, 12, tzinfo=dt.UTC)
WHITE_ID, BLACK_ID = 1, 2


@dataclass
class Board:
    """Just enough of a game for the clocks (state.ClockedGame)."""

    time_control: TimeControl
    to_act: str | None = "white"
    vacation_allowed: bool = True
    white_clock: int | None = None
    black_clock: int | None = None
    clock_since: dt.datetime | None = None
    clock_time_zone: str = "UTC"
    deadline: dt.datetime | None = None

    def color_to_act(self) -> str | None:
        return self.to_act

    def who_must_act(self) -> int | None:
        return {"white": WHITE_ID, "black": BLACK_ID}.get(self.to_act or "")


def profiles(**changes: object) -> dict[int, Profile]:
    """Unsaved profiles: the functions take them instead of reading the database."""
    return {
        WHITE_ID: Profile(user_id=WHITE_ID, **changes),
        BLACK_ID: Profile(user_id=BLACK_ID, **changes),
    }


def test_a_bank_clock_runs_is_charged_and_switches_to_the_opponent() -> None:
    board = Board(TimeControl.bank(10, increment_hours=36))
    players = profiles()
    state.start_clock(game=board, now=FRIDAY_NOON, profile=players[WHITE_ID])
    assert board.deadline == FRIDAY_NOON + dt.timedelta(days=10)
    later = FRIDAY_NOON + dt.timedelta(days=3)
    state.check_deadline(game=board, now=later)  # in time
    board.to_act = "black"
    state.charge_turn(game=board, color="white", now=later, profiles=players)
    assert board.white_clock == 7 * DAY + 36 * HOUR and board.black_clock is None
    assert board.clock_since == later and board.deadline == later + dt.timedelta(days=10)
    clock = state.clock_state(board, later + dt.timedelta(hours=1))
    assert clock == {
        "kind": "bank", "days": 10, "increment_hours": 36.0, "weekend_pause": False,
        "vacation_allowed": True, "white_remaining": 7 * DAY + 36 * HOUR,
        "black_remaining": 10 * DAY - HOUR, "deadline": board.deadline, "paused": False,
        "running": "black",
    }  # fmt: skip


def test_a_turn_at_the_deadline_is_refused() -> None:
    board = Board(TimeControl.per_turn(1))
    state.start_clock(game=board, now=FRIDAY_NOON, profile=profiles()[WHITE_ID])
    with pytest.raises(TimeExpired) as caught:
        state.check_deadline(game=board, now=board.deadline)
    assert caught.value.code == "time_expired"


def test_weekends_pause_a_clock_in_the_movers_zone() -> None:
    board = Board(TimeControl.per_turn(1, weekend_pause=True))
    tokyo = profiles(time_zone="Asia/Tokyo")[WHITE_ID]
    friday_late = dt.datetime(2026, 11, 27, 23, tzinfo=dt.UTC)  # Saturday 08:00 in Tokyo
    state.start_clock(game=board, now=friday_late, profile=tokyo)
    assert board.clock_time_zone == "Asia/Tokyo"
    assert board.deadline == dt.datetime(2026, 11, 30, 15, tzinfo=dt.UTC)  # Tuesday 00:00 JST
    clock = state.clock_state(board, friday_late + dt.timedelta(hours=20))
    assert clock["paused"] and clock["white_remaining"] == DAY


def test_vacation_keeps_a_clock_stopped_unless_the_game_forbids_it() -> None:
    away = profiles(vacation_started=FRIDAY_NOON)[WHITE_ID]
    board = Board(TimeControl.per_turn(3))
    state.start_clock(game=board, now=FRIDAY_NOON, profile=away)
    assert board.clock_since is None and board.deadline is None
    assert state.clock_state(board, FRIDAY_NOON)["paused"]
    strict = Board(TimeControl.per_turn(3), vacation_allowed=False)
    state.start_clock(game=strict, now=FRIDAY_NOON, profile=away)
    assert strict.deadline == FRIDAY_NOON + dt.timedelta(days=3)


def test_stopping_a_clock_keeps_the_time_it_has_left() -> None:
    board = Board(TimeControl.bank(5))
    state.start_clock(game=board, now=FRIDAY_NOON, profile=profiles()[WHITE_ID])
    state.stop_clock(game=board, now=FRIDAY_NOON + dt.timedelta(days=2))
    assert board.white_clock == 3 * DAY and board.deadline is None and board.clock_since is None


def test_a_finished_game_has_no_running_clock() -> None:
    board = Board(TimeControl.per_turn(3), to_act=None, deadline=FRIDAY_NOON)
    state.start_clock(game=board, now=FRIDAY_NOON)
    assert board.deadline is None
    clock = state.clock_state(board, FRIDAY_NOON)
    assert clock["running"] is None and clock["paused"] and clock["deadline"] is None
