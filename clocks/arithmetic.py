"""Clock arithmetic, free of Django and of the database: instants in, instants out.

A clock counts *running* time.  Without a weekend pause every second runs; with
one, Saturday and Sunday in the player's time zone do not count (local midnight
to local midnight, so a weekend is 47, 48 or 49 hours long around a daylight
saving change).  Every function takes the current time as an argument: callers
pass ``timezone.now()``, tests pass whatever instant they need.

>>> from datetime import datetime, timezone
>>> friday_noon = datetime(2026, 11, 27, 12, tzinfo=timezone.utc)
>>> deadline_after(friday_noon, 86_400, "UTC", weekend_pause=True).isoformat()
'2026-11-30T12:00:00+00:00'
>>> running_seconds(friday_noon, datetime(2026, 11, 30, 12, tzinfo=timezone.utc), "UTC",
...                 weekend_pause=True)
86400
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

DAY = 86_400
HOUR = 3_600
SATURDAY = 5  # date.weekday()


@lru_cache(maxsize=512)
def zone(name: str) -> ZoneInfo:
    """The ZoneInfo for an IANA name; ValueError for an unknown one."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {name!r}") from None


@lru_cache(maxsize=1)
def time_zone_names() -> frozenset[str]:
    return frozenset(available_timezones())


def is_time_zone(name: str) -> bool:
    return name in time_zone_names()


def _aware(instant: dt.datetime) -> dt.datetime:
    if instant.tzinfo is None:
        raise ValueError(f"naive datetime {instant!r}: clocks need aware instants")
    return instant


def weekends(start: dt.datetime, time_zone: str) -> Iterator[tuple[dt.datetime, dt.datetime]]:
    """Weekends as UTC intervals [Saturday 00:00, Monday 00:00) local, from the one
    containing or following `start` onwards (an endless iterator)."""
    tz = zone(time_zone)
    local_day = _aware(start).astimezone(tz).date()
    # The Saturday on or before start's local day: its weekend may contain start.
    saturday = local_day - dt.timedelta(days=(local_day.weekday() - SATURDAY) % 7)
    while True:
        begins = dt.datetime.combine(saturday, dt.time(0), tzinfo=tz).astimezone(dt.UTC)
        monday = saturday + dt.timedelta(days=2)
        ends = dt.datetime.combine(monday, dt.time(0), tzinfo=tz).astimezone(dt.UTC)
        if ends > start:
            yield begins, ends
        saturday += dt.timedelta(days=7)


def running_seconds(
    start: dt.datetime, end: dt.datetime, time_zone: str, *, weekend_pause: bool
) -> int:
    """Whole seconds a clock runs between `start` and `end` (0 if end <= start)."""
    if _aware(end) <= _aware(start):
        return 0
    total = end - start
    if weekend_pause:
        for begins, ends in weekends(start, time_zone):
            if begins >= end:
                break
            overlap = min(ends, end) - max(begins, start)
            if overlap > dt.timedelta(0):
                total -= overlap
    return int(total.total_seconds())


def deadline_after(
    start: dt.datetime, seconds: int, time_zone: str, *, weekend_pause: bool
) -> dt.datetime:
    """The instant at which a clock started at `start` with `seconds` left reaches zero.

    The inverse of running_seconds: ``running_seconds(start, deadline_after(start, s))``
    is ``s``.  A clock with time left that would run out during a weekend runs
    out on the Monday instead, since the weekend does not count.
    """
    _aware(start)
    if seconds < 0:
        raise ValueError(f"negative time left: {seconds}")
    left = dt.timedelta(seconds=seconds)
    if not weekend_pause:
        return start + left
    current = start
    for begins, ends in weekends(start, time_zone):
        if begins > current:
            if current + left <= begins:
                return current + left
            left -= begins - current
        current = max(current, ends)
    raise AssertionError("unreachable: weekends() is endless")  # pragma: no cover


def is_weekend(instant: dt.datetime, time_zone: str) -> bool:
    """Is it Saturday or Sunday at `instant` in `time_zone`?"""
    return _aware(instant).astimezone(zone(time_zone)).weekday() >= SATURDAY
