"""Clock arithmetic with a fake time source: plain instants, weekends, time zones, DST."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clocks.arithmetic import (
    DAY,
    HOUR,
    deadline_after,
    is_time_zone,
    is_weekend,
    running_seconds,
)

UTC = dt.UTC


def at(*args: int, tz: dt.tzinfo = UTC) -> dt.datetime:
    return dt.datetime(*args, tzinfo=tz)


# 2026-11-27 is a Friday, 11-28/29 the weekend, 11-30 a Monday.
FRIDAY_NOON = at(2026, 11, 27, 12)


def test_without_weekend_pause_every_second_runs() -> None:
    assert deadline_after(FRIDAY_NOON, 3 * DAY, "UTC", weekend_pause=False) == at(2026, 11, 30, 12)
    assert running_seconds(FRIDAY_NOON, at(2026, 11, 30, 12), "UTC", weekend_pause=False) == (
        3 * DAY
    )


def test_a_day_started_on_friday_noon_ends_on_monday_noon_with_the_weekend_off() -> None:
    deadline = deadline_after(FRIDAY_NOON, DAY, "UTC", weekend_pause=True)
    assert deadline == at(2026, 11, 30, 12)
    # Saturday and Sunday do not count; the clock stands still during them.
    assert (
        running_seconds(FRIDAY_NOON, at(2026, 11, 29, 23), "UTC", weekend_pause=True) == 12 * HOUR
    )


def test_a_clock_started_during_the_weekend_starts_running_on_monday() -> None:
    saturday = at(2026, 11, 28, 15)
    assert deadline_after(saturday, DAY, "UTC", weekend_pause=True) == at(2026, 12, 1, 0)
    assert running_seconds(saturday, at(2026, 11, 30, 0), "UTC", weekend_pause=True) == 0


def test_time_left_that_would_end_on_the_weekend_ends_after_it() -> None:
    # Exactly the 12 hours to Saturday midnight: the deadline is that instant.
    assert deadline_after(FRIDAY_NOON, 12 * HOUR, "UTC", weekend_pause=True) == at(2026, 11, 28, 0)
    # One second more: Monday, one second after midnight.
    assert deadline_after(FRIDAY_NOON, 12 * HOUR + 1, "UTC", weekend_pause=True) == at(
        2026, 11, 30, 0, 0, 1
    )


def test_weekends_are_counted_in_the_players_time_zone() -> None:
    # Friday 23:00 UTC is already Saturday 08:00 in Tokyo: the weekend has begun there.
    friday_late = at(2026, 11, 27, 23)
    assert is_weekend(friday_late, "Asia/Tokyo")
    assert not is_weekend(friday_late, "UTC")
    tokyo_deadline = deadline_after(friday_late, DAY, "Asia/Tokyo", weekend_pause=True)
    # Monday 00:00 JST (Sunday 15:00 UTC) + one day = Tuesday 00:00 JST = Monday 15:00 UTC.
    assert tokyo_deadline == at(2026, 11, 30, 15)
    # In UTC the same clock still has an hour of Friday to run.
    assert deadline_after(friday_late, DAY, "UTC", weekend_pause=True) == at(2026, 11, 30, 23)


def test_a_weekend_with_a_daylight_saving_change_is_49_hours_long() -> None:
    # New York leaves summer time on Sunday 2026-11-01: the weekend runs from
    # Saturday 00:00 EDT (04:00 UTC) to Monday 00:00 EST (05:00 UTC).
    new_york = "America/New_York"
    friday_noon_edt = at(2026, 10, 30, 16)
    monday_noon_est = at(2026, 11, 2, 17)
    assert running_seconds(friday_noon_edt, monday_noon_est, new_york, weekend_pause=True) == (
        24 * HOUR
    )
    assert deadline_after(friday_noon_edt, DAY, new_york, weekend_pause=True) == monday_noon_est


def test_clocks_refuse_naive_datetimes_and_unknown_zones() -> None:
    with pytest.raises(ValueError, match="naive"):
        running_seconds(dt.datetime(2026, 1, 1), FRIDAY_NOON, "UTC", weekend_pause=True)
    with pytest.raises(ValueError, match="unknown time zone"):
        deadline_after(FRIDAY_NOON, DAY, "Mars/Olympus_Mons", weekend_pause=True)
    assert not is_time_zone("Mars/Olympus_Mons")
    assert is_time_zone("Europe/Moscow")


ZONES = ["UTC", "Asia/Tokyo", "America/New_York", "Europe/Moscow", "Australia/Lord_Howe"]


@settings(max_examples=200, deadline=None)
@given(
    start=st.datetimes(
        min_value=dt.datetime(2020, 1, 1), max_value=dt.datetime(2030, 1, 1), timezones=st.just(UTC)
    ),
    seconds=st.integers(min_value=0, max_value=60 * DAY),
    zone=st.sampled_from(ZONES),
    weekend_pause=st.booleans(),
)
def test_the_deadline_is_exactly_the_time_left_of_running_time_later(
    start: dt.datetime, seconds: int, zone: str, weekend_pause: bool
) -> None:
    start = start.replace(microsecond=0)
    deadline = deadline_after(start, seconds, zone, weekend_pause=weekend_pause)
    assert running_seconds(start, deadline, zone, weekend_pause=weekend_pause) == seconds
    assert deadline >= start + dt.timedelta(seconds=seconds)
    if weekend_pause and seconds:
        # The deadline itself is never inside a weekend (time only runs on weekdays),
        # unless the clock ran out exactly at a weekend's start.
        assert not is_weekend(deadline - dt.timedelta(seconds=1), zone)
