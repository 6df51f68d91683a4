"""Forms of the game pages: they parse; games.services does the work."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clocks.forms import TimeControlForm
from clocks.timecontrol import ClockKind
from games.models import Challenge


class ChallengeForm(TimeControlForm):
    """A challenge: opponent, colour, opening, rated, and the clocks app's time control."""

    opponent = forms.CharField(
        label=_("Opponent"),
        max_length=150,
        required=False,
        help_text=_("A username, or leave empty for an open challenge anybody may accept."),
    )
    color = forms.ChoiceField(
        label=_("Your colour"), choices=Challenge.ColorChoice.choices, initial="random"
    )
    opening = forms.ChoiceField(
        label=_("Opening"), choices=Challenge.Opening.choices, initial="standard"
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)

    field_order = ["opponent", "color", "opening", "clock_kind", "days_per_turn"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["clock_kind"].required = False  # absent: days per turn

    def clean_clock_kind(self) -> str:
        return self.cleaned_data.get("clock_kind") or ClockKind.PER_TURN
