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
