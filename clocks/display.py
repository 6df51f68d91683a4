"""Clock values in words for pages and emails (translated, in the active language)."""

from __future__ import annotations

from django.utils.translation import gettext as _
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


def time_control_label(*, kind: str, days: int, increment_hours: int, weekend_pause: bool) -> str:
    """ "3 days per turn", "10 days + 36 hours per turn", with ", weekends off"."""
    if kind == "bank":
        label = _("%(bank)s + %(increment)s per turn") % {
            "bank": ngettext("%(n)d day", "%(n)d days", days) % {"n": days},
            "increment": ngettext("%(n)d hour", "%(n)d hours", increment_hours)
            % {"n": increment_hours},
        }
    else:
        label = ngettext("%(n)d day per turn", "%(n)d days per turn", days) % {"n": days}
    if weekend_pause:
        label = _("%(control)s, weekends off") % {"control": label}
    return label
