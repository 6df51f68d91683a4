"""Forms of the website: they parse; the services in games.services do the work."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from clocks.forms import TimeControlForm
from games.models import Challenge, ClockKind


class SignupForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    email = forms.EmailField(
        label=_("Email"), required=False, help_text=_("Needed to reset a forgotten password.")
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict:
        data = super().clean()
        if data.get("password1") and data.get("password1") != data.get("password2"):
            self.add_error("password2", _("The two passwords differ."))
        return data


class SettingsForm(forms.Form):
    display_name = forms.CharField(label=_("Display name"), max_length=64, required=False)
    email = forms.EmailField(label=_("Email"), required=False)
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    email_notifications = forms.BooleanField(label=_("Email notifications"), required=False)


class TokenForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


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
