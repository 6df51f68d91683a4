"""Why a tournament file (TRF) was refused, in the reader's language.

The TRF reader (tournaments/pairing/trf.py) is pure Python and speaks English; an
import keeps its reason as text.  Each known sentence is matched here and rebuilt from
a translatable one when shown; an unknown one passes through unchanged (as
games/engine_messages.py does for the engine's).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# The fields "missing …" and "bad …" name.
_FIELDS = {
    "starting rank": gettext_lazy("starting rank"),
    "rating": gettext_lazy("rating"),
    "number of rounds": gettext_lazy("number of rounds"),
    "player in XXP": gettext_lazy("player in XXP"),
    "player in XXA": gettext_lazy("player in XXA"),
    "points": gettext_lazy("points"),
    "colour": gettext_lazy("colour"),
    "XXA line": gettext_lazy("XXA line"),
}

# The records the reader understands and refuses (tournaments/pairing/trf.py), each
# followed by ": '<the line>'".
_REFUSED = {
    "team records are not supported": gettext_lazy("team records are not supported"),
    "unsupported initial colour (152 W or 152 B)": gettext_lazy(
        "unsupported initial colour (152 W or 152 B)"
    ),
    "TRF-2026 point systems (162) are not supported": gettext_lazy(
        "TRF-2026 point systems (162) are not supported"
    ),
    "TRF-2026 tournament types (192) are not supported": gettext_lazy(
        "TRF-2026 tournament types (192) are not supported"
    ),
    "TRF-2026 bye records (240) are not supported; enter byes in the round columns": (
        gettext_lazy(
            "TRF-2026 bye records (240) are not supported; enter byes in the round columns"
        )
    ),
    "TRF-2026 acceleration records (250) are not supported; use XXA": gettext_lazy(
        "TRF-2026 acceleration records (250) are not supported; use XXA"
    ),
    "TRF-2026 forbidden-pair records (260) are not supported; use XXP": gettext_lazy(
        "TRF-2026 forbidden-pair records (260) are not supported; use XXP"
    ),
    "abnormal points (299) are not supported": gettext_lazy(
        "abnormal points (299) are not supported"
    ),
    "XXZ is not supported": gettext_lazy("XXZ is not supported"),
}


def _field(name: str) -> str:
    match = re.fullmatch(r"round (\d+) opponent", name)
    if match:
        return _("round %(round)s opponent") % {"round": match[1]}
    return str(_FIELDS.get(name, name))


_Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]

RULES: list[_Rule] = [
    (
        re.compile(r"^round (?P<round>\d+): (?P<rest>.+)$", re.DOTALL),
        lambda m: (
            _("round %(round)s: %(reason)s")
            % {"round": m["round"], "reason": translate_trf_error(m["rest"])}
        ),
    ),
    (
        re.compile(r"^unknown TRF record: (?P<text>.+)$", re.DOTALL),
        lambda m: _("unknown TRF record: %(text)s") % m.groupdict(),
    ),
    (
        re.compile(r"^team records are not supported: (?P<text>.+)$", re.DOTALL),
        lambda m: _("team records are not supported: %(text)s") % m.groupdict(),
    ),
    (
        re.compile(
            "^(?P<refusal>" + "|".join(re.escape(text) for text in _REFUSED) + "): (?P<text>.+)$",
            re.DOTALL,
        ),
        lambda m: f"{_REFUSED[m['refusal']]}: {m['text']}",
    ),
    (
        re.compile(r"^player (?P<player>\d+), round (?P<round>\d+): (?P<rest>.+)$", re.DOTALL),
        lambda m: (
            _("player %(player)s, round %(round)s: %(reason)s")
            % {"player": m["player"], "round": m["round"], "reason": translate_trf_error(m["rest"])}
        ),
    ),
    (
        re.compile(r"^misaligned entry (?P<text>'.*')$", re.DOTALL),
        lambda m: _("misaligned entry %(text)s") % m.groupdict(),
    ),
    (
        re.compile(r"^unknown result code (?P<text>'.*')$", re.DOTALL),
        lambda m: _("unknown result code %(text)s") % m.groupdict(),
    ),
    (
        re.compile(r"^a bye has no opponent or colour$"),
        lambda m: _("a bye has no opponent or colour"),
    ),
    (
        re.compile(r"^result (?P<text>'.*') needs an opponent$", re.DOTALL),
        lambda m: _("result %(text)s needs an opponent") % m.groupdict(),
    ),
    (
        re.compile(r"^a played game needs a colour$"),
        lambda m: _("a played game needs a colour"),
    ),
    (
        re.compile(r"^entry not at column (?P<column>\d+)$"),
        lambda m: _("entry not at column %(column)s") % m.groupdict(),
    ),
    (
        re.compile(r"^unsupported XXC option (?P<text>'.*')$", re.DOTALL),
        lambda m: _("unsupported XXC option %(text)s") % m.groupdict(),
    ),
    (
        re.compile(r"^second XXA line for player (?P<player>\d+)$"),
        lambda m: _("second XXA line for player %(player)s") % m.groupdict(),
    ),
    (
        re.compile(r"^(?P<record>XXA|XXP) names unknown player (?P<player>\d+)$"),
        lambda m: _("%(record)s names unknown player %(player)s") % m.groupdict(),
    ),
    (
        re.compile(r"^unknown XXS entry (?P<key>'.*?'): (?P<text>.+)$", re.DOTALL),
        lambda m: _("unknown XXS entry %(key)s: %(text)s") % m.groupdict(),
    ),
    (
        re.compile(
            r"^only the standard point system is supported \((?P<key>\w+) = (?P<points>[\d.]+)\): "
            r"(?P<text>.+)$",
            re.DOTALL,
        ),
        lambda m: (
            _("only the standard point system is supported (%(key)s = %(points)s): %(text)s")
            % m.groupdict()
        ),
    ),
    (
        re.compile(r"^misaligned XXA field (?P<text>'.*')$", re.DOTALL),
        lambda m: _("misaligned XXA field %(text)s") % m.groupdict(),
    ),
    (
        re.compile(r"^bye value must be 0, 0\.5 or 1, not (?P<text>'.*')$", re.DOTALL),
        lambda m: _("bye value must be 0, 0.5 or 1, not %(text)s") % m.groupdict(),
    ),
    (
        re.compile(r"^starting ranks must be 1\.\.(?P<count>\d+): (?P<rank>\d+) is missing$"),
        lambda m: _("starting ranks must be 1 to %(count)s: %(rank)s is missing") % m.groupdict(),
    ),
    (
        re.compile(r"^results for more than round (?P<round>\d+)$"),
        lambda m: _("results for more than round %(round)s") % m.groupdict(),
    ),
    (
        re.compile(
            r"^points (?P<listed>[\d.]+) do not match the results \((?P<computed>[\d.]+)\)$"
        ),
        lambda m: _("points %(listed)s do not match the results (%(computed)s)") % m.groupdict(),
    ),
    (
        re.compile(r"^(?P<completed>\d+) rounds played but XXR is (?P<total>\d+)$"),
        lambda m: _("%(completed)s rounds played but XXR is %(total)s") % m.groupdict(),
    ),
    (
        re.compile(r"^bad opponent (?P<opponent>\d+)$"),
        lambda m: _("bad opponent %(opponent)s") % m.groupdict(),
    ),
    (
        re.compile(r"^opponent (?P<opponent>\d+) does not list this game$"),
        lambda m: _("opponent %(opponent)s does not list this game") % m.groupdict(),
    ),
    (
        re.compile(r"^results (?P<first>'.*?') and (?P<second>'.*?') do not match$"),
        lambda m: _("results %(first)s and %(second)s do not match") % m.groupdict(),
    ),
    (
        re.compile(r"^both players had the same colour$"),
        lambda m: _("both players had the same colour"),
    ),
    (
        re.compile(r"^forbidden pair (?P<pair>\[[\d, ]*\]) is not two known players$"),
        lambda m: _("forbidden pair %(pair)s is not two known players") % m.groupdict(),
    ),
    (
        re.compile(r"^acceleration for unknown player (?P<player>\d+)$"),
        lambda m: _("acceleration for unknown player %(player)s") % m.groupdict(),
    ),
    (re.compile(r"^no player lines \(001\)$"), lambda m: _("no player lines (001)")),
    (
        re.compile(r"^missing XXR \(total number of rounds\)$"),
        lambda m: _("missing XXR (total number of rounds)"),
    ),
    (re.compile(r"^TRF input must be text$"), lambda m: _("the file must be text")),
    (re.compile(r"^player line too short$"), lambda m: _("player line too short")),
    (
        re.compile(r"^starting rank (?P<rank>\d+) out of range$"),
        lambda m: _("starting rank %(rank)s out of range") % m.groupdict(),
    ),
    (
        re.compile(r"^starting rank (?P<rank>\d+) appears twice$"),
        lambda m: _("starting rank %(rank)s appears twice") % m.groupdict(),
    ),
    (re.compile(r"^too many rounds$"), lambda m: _("too many rounds")),
    (
        re.compile(r"^too many rounds: (?P<rounds>\d+)$"),
        lambda m: _("too many rounds: %(rounds)s") % m.groupdict(),
    ),
    (
        re.compile(r"^XXP needs at least two players$"),
        lambda m: _("XXP needs at least two players"),
    ),
    (
        re.compile(r"^missing (?P<field>[\w ]+)$"),
        lambda m: _("missing %(field)s") % {"field": _field(m["field"])},
    ),
    (
        re.compile(r"^bad (?P<field>[\w ]+?) (?P<text>'.*')$", re.DOTALL),
        lambda m: _("bad %(field)s %(text)s") % {"field": _field(m["field"]), "text": m["text"]},
    ),
]


def translate_trf_error(reason: str) -> str:
    """The TRF reader's reason in the active language (unchanged when not recognised).
    The importer's own refusals are catalogue messages, stored in the worker's
    language (English): looked up as they are."""
    for pattern, build in RULES:
        match = pattern.match(reason)
        if match:
            return build(match)
    return _(reason) if reason else reason
