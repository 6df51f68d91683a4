"""The time control's columns, one way for challenges, games and tournaments.

No table of its own: ``TimeControlFields`` is an abstract mixin; each model that
has a time control gets the same four columns and the ``time_control`` property.
The increment is stored exactly, in seconds (challenges and tournaments offer
whole hours; a game's column has always been seconds).
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from clocks.timecontrol import MAX_DAYS, ClockKind, TimeControl

# The kind's column: the longest kind ("per_turn") filled all 8 characters of the first
# one; room now for a longer name without altering four tables (a test checks each fits).
KIND_MAX_LENGTH = 16


class TimeControlFields(models.Model):
    # Per-turn clocks: days for each turn; bank clocks: the initial (and maximum) bank.
    days_per_turn = models.PositiveSmallIntegerField(
        _("days per turn"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_DAYS)],
    )
    clock_kind = models.CharField(
        _("time control"),
        max_length=KIND_MAX_LENGTH,
        choices=ClockKind.choices,
        default=ClockKind.PER_TURN,
    )
    clock_increment = models.PositiveIntegerField(_("increment (seconds)"), default=0)
    weekend_pause = models.BooleanField(_("weekend pause"), default=False)

    class Meta:
        abstract = True

    @property
    def time_control(self) -> TimeControl:
        return TimeControl(
            kind=self.clock_kind,  # type: ignore[arg-type]
            days=self.days_per_turn,
            increment_seconds=self.clock_increment,
            weekend_pause=self.weekend_pause,
        )

    @time_control.setter
    def time_control(self, value: TimeControl) -> None:
        # Also a keyword of the model's constructor: Game(time_control=…).
        self.clock_kind = value.kind.value
        self.days_per_turn = value.days
        self.clock_increment = value.increment_seconds
        self.weekend_pause = bool(value.weekend_pause)


TIME_CONTROL_FIELDS = ["days_per_turn", "clock_kind", "clock_increment", "weekend_pause"]
