"""Forms of the vacation and clock-preferences page; clocks.services does the work."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import TurnEmail
from clocks.arithmetic import is_time_zone
from clocks.services import MAX_VACATION_DAYS
from clocks.timecontrol import MAX_DAYS, MAX_INCREMENT_HOURS, ClockKind, TimeControl


class VacationForm(forms.Form):
    days = forms.IntegerField(
        label=_("Days"),
        min_value=1,
        max_value=MAX_VACATION_DAYS,
        required=False,
        help_text=_("Empty: all the days you have left this year."),
    )


class ClockPreferencesForm(forms.Form):
    time_zone = forms.CharField(
        label=_("Time zone"),
        max_length=64,
        help_text=_("For the weekend pause, e.g. Europe/Moscow or America/New_York."),
    )
    auto_vacation = forms.BooleanField(
        label=_("Spend a vacation day instead of losing on time"), required=False
    )
    turn_email = forms.ChoiceField(label=_("Your-turn emails"), choices=TurnEmail.choices)

    def clean_time_zone(self) -> str:
        value = self.cleaned_data["time_zone"].strip()
        if not is_time_zone(value):
            raise forms.ValidationError(_("Unknown time zone: use a name like Europe/Moscow."))
        return value


class TimeControlForm(forms.Form):
    """Time-control fields for the lobby's challenge form (combine with it, or subclass).

    cleaned_data then holds ``time_control`` (a TimeControl) for
    games.services.create_challenge, beside the fields it was read from
    (``clock_kind``, ``days_per_turn``, ``increment_hours``, ``weekend_pause``).
    `strict_days` False accepts any number of days per turn up to MAX_DAYS (tournaments).
    """

    strict_days = True

    clock_kind = forms.ChoiceField(
        label=_("Time control"), choices=ClockKind.choices, initial=ClockKind.PER_TURN
    )
    days_per_turn = forms.IntegerField(
        label=_("Days"),
        min_value=1,
        max_value=MAX_DAYS,
        initial=3,
        help_text=_("Per turn: 1, 2, 3, 5, 7, 10 or 14 days. Time bank: its size, up to 30."),
    )
    increment_hours = forms.IntegerField(
        label=_("Increment (hours, time bank only)"),
        min_value=0,
        max_value=MAX_INCREMENT_HOURS,
        initial=0,
        required=False,
    )
    weekend_pause = forms.BooleanField(
        label=_("No clock on weekends (Saturday and Sunday in each player's time zone)"),
        required=False,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data  # None: cleaned_data as it is
        data["increment_hours"] = data.get("increment_hours") or 0
        if data.get("clock_kind") and "days_per_turn" in data:
            control = TimeControl.from_hours(
                kind=data["clock_kind"],
                days=data["days_per_turn"],
                increment_hours=data["increment_hours"],
                weekend_pause=bool(data.get("weekend_pause")),
            )
            problems = control.errors(strict_days=self.strict_days)
            for field, messages in problems.items():
                target = {"days": "days_per_turn"}.get(field, field)
                for message in messages:
                    self.add_error(target, message)
            if not problems:
                data["time_control"] = control
        return data
