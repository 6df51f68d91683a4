"""The time control: a small frozen value, the same for challenges, games and tournaments.

A time control says how much time a player has, not how much is left (that is the
clock state, clocks/state.py).  It is stored in four columns by the
``clocks.models.TimeControlFields`` mixin and read back as ``obj.time_control``.

>>> control = TimeControl.bank(10, increment_hours=36)
>>> control
TimeControl(kind=ClockKind.BANK, days=10, increment_seconds=129600, weekend_pause=False)
>>> control.errors()
{}
>>> control.after_turn(left=control.initial_seconds, used=4 * 86_400) == 7 * 86_400 + 12 * 3_600
True
>>> TimeControl.per_turn(4).errors()["days"]
['Days per turn must be one of 1, 2, 3, 5, 7, 10, 14.']
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clocks.arithmetic import DAY, HOUR

PER_TURN_DAYS = (1, 2, 3, 5, 7, 10, 14)
MAX_DAYS = 30  # a time bank's size, or (legacy days_per_turn) days per turn
MAX_INCREMENT_HOURS = 240


class ClockKind(models.TextChoices):
    """How a clock is filled again after a turn."""

    # Each turn must be played within `days` days.
    PER_TURN = "per_turn", gettext_lazy("Days per turn")
    # Little Golem style: a bank of `days` days, the increment added after each
    # turn, capped at the initial bank.
    BANK = "bank", gettext_lazy("Time bank")


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, repr=False)
class TimeControl:
    """Kind, size (`days`), increment (exact, in seconds) and the weekend pause.

    Building one checks nothing but the kind (ValueError for an unknown one):
    values read from the database are taken as they are, and ``errors()`` /
    ``validate()`` judge a control someone asks for.
    """

    kind: ClockKind = ClockKind.PER_TURN
    days: int = 3
    increment_seconds: int = 0
    weekend_pause: bool = False

    def __post_init__(self) -> None:
        # "bank" and ClockKind.BANK make equal, hashable-alike values.
        object.__setattr__(self, "kind", ClockKind(self.kind))

    def __repr__(self) -> str:
        return (
            f"TimeControl(kind=ClockKind.{self.kind.name}, days={self.days!r}, "
            f"increment_seconds={self.increment_seconds!r}, "
            f"weekend_pause={self.weekend_pause!r})"
        )

    # --- Building ------------------------------------------------------------------------

    @classmethod
    def per_turn(cls, days: int = 3, *, weekend_pause: bool = False) -> TimeControl:
        return cls(ClockKind.PER_TURN, days, 0, weekend_pause)

    @classmethod
    def bank(
        cls, days: int, *, increment_hours: int = 0, weekend_pause: bool = False
    ) -> TimeControl:
        return cls.from_hours(
            kind=ClockKind.BANK, days=days, increment_hours=increment_hours,
            weekend_pause=weekend_pause,
        )  # fmt: skip

    @classmethod
    def from_hours(
        cls, *, kind: str, days: int, increment_hours: float = 0, weekend_pause: bool = False
    ) -> TimeControl:
        """From the fields a player fills in (API, forms): the increment in hours.

        A per-turn control keeps a non-zero increment, so that ``errors()`` can say it
        has none; a fraction of an hour is kept to the second and refused there too.
        """
        if isinstance(increment_hours, bool) or not isinstance(increment_hours, int | float):
            raise TypeError(f"increment_hours must be a number, not {increment_hours!r}")
        return cls(ClockKind(kind), days, round(increment_hours * HOUR), bool(weekend_pause))

    def replace(self, **changes: object) -> TimeControl:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    # --- Reading ---------------------------------------------------------------------------

    @property
    def initial_seconds(self) -> int:
        """A full clock: the days of one turn, or the whole bank."""
        return self.days * DAY

    @property
    def increment_hours(self) -> float:
        """The increment in hours (36.0); 0 for a per-turn control."""
        return self.increment_seconds / HOUR

    def after_turn(self, *, left: int, used: int) -> int:
        """Time left on a player's clock once they have played a turn.

        per_turn: the next turn gets the full time again.  bank: what was left after
        `used` seconds, plus the increment, never more than the initial bank.
        """
        if self.kind == ClockKind.PER_TURN:
            return self.initial_seconds
        return min(self.initial_seconds, max(0, left - used) + self.increment_seconds)

    # --- Judging ---------------------------------------------------------------------------

    def errors(self, *, strict_days: bool = True) -> dict[str, list[str]]:
        """Field errors ({} when valid), keyed ``days`` and ``increment_hours``.

        `strict_days` holds per-turn clocks to the usual choices (1, 2, 3, 5, 7, 10,
        14 days); the older `days_per_turn` fields (challenges, tournaments) keep
        accepting any whole number of days up to MAX_DAYS.
        """
        problems: dict[str, list[str]] = {}
        if self.kind == ClockKind.PER_TURN and strict_days:
            if self.days not in PER_TURN_DAYS:
                problems["days"] = [
                    _("Days per turn must be one of %(choices)s.")
                    % {"choices": ", ".join(map(str, PER_TURN_DAYS))}
                ]
        elif not _whole(self.days) or not 1 <= self.days <= MAX_DAYS:
            if self.kind == ClockKind.BANK:
                message = _("The time bank must be a whole number of days from 1 to %(max)d.")
            else:
                message = _("Days per turn must be a whole number from 1 to %(max)d.")
            problems["days"] = [message % {"max": MAX_DAYS}]
        increment = self.increment_seconds
        if (
            not _whole(increment)
            or increment % HOUR
            or not 0 <= increment <= MAX_INCREMENT_HOURS * HOUR
        ):
            problems["increment_hours"] = [
                _("The increment must be a whole number of hours from 0 to %(max)d.")
                % {"max": MAX_INCREMENT_HOURS}
            ]
        elif self.kind == ClockKind.PER_TURN and increment:
            problems["increment_hours"] = [_("Only a time bank has an increment.")]
        return problems

    def validate(self, *, strict_days: bool = True) -> TimeControl:
        """This control, or InvalidInput (400) with the field errors of ``errors()``."""
        from core.errors import InvalidInput

        problems = self.errors(strict_days=strict_days)
        if problems:
            raise InvalidInput(fields=problems)
        return self

    def label(self) -> str:
        """ "3 days per turn", "10 days + 36 hours per turn", with ", weekends off"
        (translated in the active language)."""
        if self.kind == ClockKind.BANK:
            hours, rest = divmod(self.increment_seconds, HOUR)
            if rest:
                from clocks.display import duration_label

                increment = duration_label(self.increment_seconds)
            else:
                increment = ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}
            label = _("%(bank)s + %(increment)s per turn") % {
                "bank": ngettext("%(n)d day", "%(n)d days", self.days) % {"n": self.days},
                "increment": increment,
            }
        else:
            label = ngettext("%(n)d day per turn", "%(n)d days per turn", self.days) % {
                "n": self.days
            }
        if self.weekend_pause:
            label = _("%(control)s, weekends off") % {"control": label}
        return label

    def __str__(self) -> str:
        return self.label()


DEFAULT = TimeControl.per_turn(3)
