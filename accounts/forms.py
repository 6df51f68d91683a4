"""Forms of the account pages: they parse; accounts.services does the work."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from core.text import hidden_characters


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

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data  # None: cleaned_data as it is
        if data.get("password1") and data.get("password1") != data.get("password2"):
            self.add_error("password2", _("The two passwords differ."))
        return data


class SettingsForm(forms.Form):
    display_name = forms.CharField(label=_("Display name"), max_length=64, required=False)

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"]
        hidden = hidden_characters(name)
        if hidden:
            raise forms.ValidationError(
                _("The name contains invisible characters (%(codes)s).")
                % {"codes": ", ".join(hidden)}
            )
        return name

    email = forms.EmailField(label=_("Email"), required=False)
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    email_notifications = forms.BooleanField(label=_("Email notifications"), required=False)


class TokenForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


class BlockForm(forms.Form):
    username = forms.CharField(label=_("Player to block"), max_length=150)
