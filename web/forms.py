"""Forms of the website: they parse; the services in games.services do the work."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class ImportForm(forms.Form):
    file = forms.FileField(label=_(".agn file"))
