"""Forms of the archive: they parse; archive.services does the work."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Game
from tournaments.models import Tournament

User = get_user_model()


class ArchiveFilterForm(forms.Form):
    """Filters of the archive; every field is optional and is also a query parameter."""

    player = forms.CharField(label=_("Player"), required=False, max_length=150)
    opponent = forms.CharField(label=_("Opponent"), required=False, max_length=150)
    color = forms.ChoiceField(
        label=_("Player's colour"),
        required=False,
        choices=[("", _("Either")), ("white", _("White")), ("black", _("Black"))],
    )
    result = forms.ChoiceField(
        label=_("Result"),
        required=False,
        choices=[
            ("", _("Any")),
            ("1-0", _("White won")),
            ("0-1", _("Black won")),
            ("1/2-1/2", _("Draw")),
            ("win", _("Player won")),
            ("loss", _("Player lost")),
        ],
    )
    termination = forms.ChoiceField(
        label=_("Termination"),
        required=False,
        choices=[("", _("Any")), *Game.Termination.choices],
    )
    tournament = forms.TypedChoiceField(
        label=_("Tournament"), required=False, coerce=int, empty_value=None
    )
    opening = forms.ChoiceField(
        label=_("Opening"), required=False, choices=[("", _("Any")), *Game.Opening.choices]
    )
    board = forms.ChoiceField(
        label=_("Board"),
        required=False,
        choices=[("", _("Any")), ("standard", _("Standard")), ("custom", _("Custom"))],
    )
    since = forms.DateField(label=_("Finished from"), required=False)
    until = forms.DateField(label=_("Finished until"), required=False)
    imported = forms.NullBooleanField(label=_("Imported"), required=False)
    sort = forms.ChoiceField(
        label=_("Sort"),
        required=False,
        choices=[
            ("-finished", _("Newest first")),
            ("finished", _("Oldest first")),
            ("-ply", _("Longest first")),
            ("ply", _("Shortest first")),
        ],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["tournament"]).choices = [
            ("", _("Any")),
            *(
                (tournament.pk, tournament.shown_name)
                for tournament in Tournament.objects.order_by("-id").only("id", "name")[:500]
            ),
        ]
        self.fields["since"].widget.input_type = "date"
        self.fields["until"].widget.input_type = "date"

    def _user(self, name: str) -> Any:
        value = (self.cleaned_data.get(name) or "").strip()
        if not value:
            return None
        user = User.objects.filter(username__iexact=value).only("id").first()
        if user is None:
            self.add_error(name, gettext("There is no player called %(name)s.") % {"name": value})
        return user

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data  # None: cleaned_data as it is
        data["player_user"] = self._user("player")
        data["opponent_user"] = self._user("opponent")
        if data.get("result") in ("win", "loss") and not data.get("player"):
            self.add_error("result", gettext("Choose a player to filter by wins or losses."))
        if data.get("color") and not data.get("player"):
            self.add_error("color", gettext("Choose a player to filter by colour."))
        return data


class ImportForm(forms.Form):
    file = forms.FileField(label=_(".agn file"))
