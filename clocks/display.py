"""Clock values in words for pages and emails (translated, in the active language).

A time control words itself: ``TimeControl.label()``.
"""

from __future__ import annotations

from django.utils.translation import ngettext

from clocks.arithmetic import DAY, HOUR


def duration_label(seconds: int) -> str:
    """ "2 days 3 hours", "5 hours 12 minutes", "40 minutes": two units at most."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // 60
    parts: list[str] = []
    if days:
        parts.append(ngettext("%(n)d day", "%(n)d days", days) % {"n": days})
    if hours and len(parts) < 2:
        parts.append(ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours})
    if not days and (minutes or not parts) and len(parts) < 2:
        parts.append(ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes})
    return " ".join(parts)
