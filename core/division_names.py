"""A league division's tournament name: stored in English when its season starts
(tournaments/leagues.py), shown in the reader's language wherever it appears — the
tournament pages (Tournament.shown_name) and the notifications that quote it, which
cannot import the tournaments app (siblings); hence here, below both."""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop

DIVISION_NAME: str = gettext_noop("%(league)s — season %(season)d, division %(division)d")
_DIVISION_NAME = re.compile(
    r"^(?P<league>.+) — season (?P<season>\d+), division (?P<division>\d+)$", re.DOTALL
)


def division_name(league: str, season: int, division: int) -> str:
    """The stored (English) name of a division's tournament."""
    return DIVISION_NAME % {"league": league, "season": season, "division": division}


def shown_tournament_name(name: str) -> str:
    """A division's name in the active language; any other name unchanged."""
    match = _DIVISION_NAME.match(name)
    if match is None:
        return name
    shown: str = gettext(DIVISION_NAME)
    return shown % {
        "league": match["league"],
        "season": int(match["season"]),
        "division": int(match["division"]),
    }
