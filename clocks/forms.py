"""Forms of the vacation and clock-preferences page; clocks.services does the work."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clocks.arithmetic import is_time_zone
from games.models import TurnEmail


class VacationForm(forms.Form):
    days = forms.IntegerField(
        label=_("Days"),
        min_value=1,
        max_value=366,
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
