"""The organiser's form for a new tournament; the service does the real checks."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clocks.forms import TimeControlForm
from clocks.timecontrol import ClockKind
from games.models import Game
from tournaments import pairing
from tournaments.models import PairingRules, PairingSystem, Tournament

TIEBREAK_LABELS = {
    "BH": _("Buchholz"),
    "BH-C1": _("Buchholz Cut-1"),
    "SB": _("Sonneborn-Berger"),
    "DE": _("Direct encounter"),
    "WIN": _("Number of wins"),
    "WON": _("Games won over the board"),
    "BPG": _("Games with Black"),
    "BWG": _("Wins with Black"),
}


class TournamentForm(TimeControlForm):
    """A new tournament, with its games' time control (any kind, 1 to 30 days)."""

    strict_days = False

    name = forms.CharField(label=_("Name"), max_length=120)
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices)
    rounds = forms.IntegerField(
        label=_("Rounds"), required=False, min_value=1, help_text=_("Swiss only.")
    )
    opening = forms.ChoiceField(
        label=_("Opening"),
        choices=[
            (Game.Opening.STANDARD, Game.Opening.STANDARD.label),
            (Game.Opening.PIE, Game.Opening.PIE.label),
        ],
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    registration_opens = forms.DateTimeField(
        label=_("Registration opens"), required=False, help_text=_("UTC, e.g. 2026-12-01 18:00")
    )
    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        required=False,
        help_text=_("UTC; registration closes then and the tournament starts by itself."),
    )
    max_players = forms.IntegerField(label=_("Player limit"), required=False, min_value=2)
    bye_points = forms.TypedChoiceField(
        label=_("A bye scores"), choices=Tournament.ByePoints.choices, coerce=int, initial=2
    )
    tiebreaks = forms.CharField(
        label=_("Tie-breaks"),
        required=False,
    )
    all_at_once = forms.BooleanField(
        label=_("Start all games at once (round robin)"), required=False
    )
    allow_bots = forms.BooleanField(label=_("Bots may join"), required=False)
    half_point_byes = forms.IntegerField(
        label=_("Half-point byes per player (Swiss)"),
        required=False,
        initial=1,
        min_value=0,
        help_text=_("On request, for a round not yet paired; never the last round."),
    )
    pairing_system = forms.ChoiceField(
        label=_("Pairing system (Swiss)"),
        choices=PairingSystem.choices,
        initial="dutch",
        required=False,
    )
    pairing_rules = forms.ChoiceField(
        label=_("Dutch rules (Swiss)"),
        choices=PairingRules.choices,
        initial="2026",
        required=False,
    )
    tie_rule = forms.ChoiceField(
        label=_("Drawn match (knockout)"),
        choices=Tournament.TieRule.choices,
        initial="replay",
        required=False,
    )
    late_entries = forms.BooleanField(
        label=_("Late entries (Swiss)"),
        required=False,
        initial=True,
        help_text=_("Until half the rounds are paired; missed rounds score zero."),
    )
    arbiter_publishes = forms.BooleanField(
        label=_("The arbiter checks and publishes each round (Swiss)"),
        required=False,
        help_text=_("Each pairing waits as a draft you can edit before its games start."),
    )
    avoid_same_club = forms.BooleanField(
        label=_("Players of the same club never meet (Swiss)"), required=False
    )

    field_order = ["name", "format", "rounds", "opening", "clock_kind", "days_per_turn"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["clock_kind"].required = False  # absent: days per turn
        # Filled per form, in the request's language (at import it would stay English).
        self.fields["tiebreaks"].help_text = _(
            "In order, separated by commas, from: %(names)s. Empty: the usual order."
        ) % {"names": ", ".join(pairing.TIEBREAK_NAMES)}

    def clean_clock_kind(self) -> str:
        return self.cleaned_data.get("clock_kind") or ClockKind.PER_TURN

    def service_arguments(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        for name in ("clock_kind", "days_per_turn", "increment_hours", "weekend_pause"):
            del data[name]  # all in data["time_control"]
        raw = data.pop("tiebreaks") or ""
        names = [name.strip().upper() for name in raw.split(",") if name.strip()]
        data["tiebreaks"] = names or None
        if data.get("half_point_byes") is None:
            del data["half_point_byes"]  # left empty: the service's default
        for name in ("pairing_system", "pairing_rules", "tie_rule"):
            if not data.get(name):
                del data[name]  # forms posted without them: the service's default
        return data


class LeagueForm(TimeControlForm):
    """A new championship league (tournaments.leagues.create_league)."""

    strict_days = False

    name = forms.CharField(label=_("Name"), max_length=120)
    division_size = forms.IntegerField(
        label=_("Players per division"), initial=6, min_value=2, max_value=20
    )
    promote = forms.IntegerField(
        label=_("Promoted and relegated"),
        initial=1,
        min_value=1,
        help_text=_("How many of each division go up, and down, at the season's end."),
    )
    opening = forms.ChoiceField(
        label=_("Opening"),
        choices=[
            (Game.Opening.STANDARD, Game.Opening.STANDARD.label),
            (Game.Opening.PIE, Game.Opening.PIE.label),
        ],
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    allow_bots = forms.BooleanField(label=_("Bots may join"), required=False)

    field_order = ["name", "division_size", "promote", "opening", "clock_kind", "days_per_turn"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["clock_kind"].required = False  # absent: days per turn

    def clean_clock_kind(self) -> str:
        return self.cleaned_data.get("clock_kind") or ClockKind.PER_TURN

    def service_arguments(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        for name in ("clock_kind", "days_per_turn", "increment_hours", "weekend_pause"):
            data.pop(name, None)  # all in data["time_control"]
        return data
