"""The engine's reasons for refusing a turn, in the reader's language.

The engine is pure Python and speaks English; its refusals follow a small set of
sentence patterns (engine/position.py, engine/turn.py).  Each known pattern is
matched here and rebuilt from a translatable sentence; an unknown one passes
through unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

C = r"(?P<{}>[A-Z]+\d+)"


def _pattern(text: str) -> re.Pattern[str]:
    for name in ("cell", "src", "dst"):
        text = text.replace("{" + name + "}", C.format(name))
    return re.compile("^" + text + "$")


def _steps(m: re.Match[str]) -> str:
    n = int(m["n"])
    return ngettext(
        "%(src)s cannot reach %(dst)s in %(n)d step through empty cells",
        "%(src)s cannot reach %(dst)s in %(n)d steps through empty cells",
        n,
    ) % {"src": m["src"], "dst": m["dst"], "n": n}


def _actions(message: Callable[[int], str]) -> Callable[[re.Match[str]], str]:
    return lambda m: message(int(m["n"])) % {"n": int(m["n"])}


RULES: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (
        _pattern(r"{cell} is not on the board"),
        lambda m: _("%(cell)s is not on the board") % m.groupdict(),
    ),
    (
        _pattern(r"{cell} holds a (white|black) adaptoid; (White|Black) is to move"),
        lambda m: _("%(cell)s holds your opponent's adaptoid") % m.groupdict(),
    ),
    (_pattern(r"{cell} is empty"), lambda m: _("%(cell)s is empty") % m.groupdict()),
    (_pattern(r"{cell} has no legs"), lambda m: _("%(cell)s has no legs") % m.groupdict()),
    (_pattern(r"{cell} has no pincers"), lambda m: _("%(cell)s has no pincers") % m.groupdict()),
    (
        _pattern(r"{cell} holds a (white|black) adaptoid"),
        lambda m: _("%(cell)s holds one of your own adaptoids") % m.groupdict(),
    ),
    (
        _pattern(r"{dst} holds a (white|black) adaptoid: an attack is written {src}x[A-Z]+\d+"),
        lambda m: (
            _("%(dst)s holds an enemy adaptoid: an attack is written %(src)sx%(dst)s")
            % m.groupdict()
        ),
    ),
    (
        _pattern(r"{dst} is empty: a move there is written {src}-[A-Z]+\d+"),
        lambda m: _("%(dst)s is empty: a move there is written %(src)s-%(dst)s") % m.groupdict(),
    ),
    (
        _pattern(r"{cell} has more pincers than the attacker"),
        lambda m: _("%(cell)s has more pincers than the attacker") % m.groupdict(),
    ),
    (_pattern(r"{src} cannot reach {dst} in (?P<n>\d+) steps? through empty cells"), _steps),
    (
        _pattern(r"the move ends the game: no action may follow"),
        lambda m: _("the move ends the game: no action may follow"),
    ),
    (
        _pattern(
            r"a pass is legal only when no action exists: (?P<n>\d+) actions? (is|are) available"
        ),
        _actions(
            lambda n: ngettext(
                "a pass is allowed only when you cannot grow: %(n)d action is available",
                "a pass is allowed only when you cannot grow: %(n)d actions are available",
                n,
            )
        ),
    ),
    (
        _pattern(r"the action is mandatory: (?P<n>\d+) actions? (is|are) available"),
        _actions(
            lambda n: ngettext(
                "growing is mandatory: %(n)d action is available",
                "growing is mandatory: %(n)d actions are available",
                n,
            )
        ),
    ),
    (
        _pattern(r"(White|Black) already has (?P<n>\d+) adaptoids on the board"),
        lambda m: _("you already have %(n)s adaptoids on the board") % m.groupdict(),
    ),
    (_pattern(r"{cell} is not empty"), lambda m: _("%(cell)s is not empty") % m.groupdict()),
    (
        _pattern(r"{cell} does not touch a (white|black) adaptoid"),
        lambda m: _("%(cell)s does not touch one of your adaptoids") % m.groupdict(),
    ),
    (
        _pattern(r"{cell} holds no (white|black) adaptoid"),
        lambda m: _("%(cell)s holds none of your adaptoids") % m.groupdict(),
    ),
    (
        _pattern(r"{cell} already has (?P<n>\d+) limbs"),
        lambda m: _("%(cell)s already has %(n)s limbs") % m.groupdict(),
    ),
    (
        _pattern(r"(White|Black) already has (?P<n>\d+) legs on the board"),
        lambda m: _("you already have %(n)s legs on the board") % m.groupdict(),
    ),
    (
        _pattern(r"(White|Black) already has (?P<n>\d+) pincers on the board"),
        lambda m: _("you already have %(n)s pincers on the board") % m.groupdict(),
    ),
    (_pattern(r"empty turn"), lambda m: _("the turn is empty")),
    (
        _pattern(r"a move must end on another cell"),
        lambda m: _("a move must end on another cell"),
    ),
    (
        _pattern(r"unexpected space \(spaces are allowed only around the comma\)"),
        lambda m: _("unexpected space (spaces are allowed only around the comma)"),
    ),
    (
        _pattern(r"a turn has at most one comma: '<move>,<action>'"),
        lambda m: _("a turn has at most one comma: '<move>,<action>'"),
    ),
]

# Reading a record (engine/record.py, an import's report): "line 12: " and a turn's
# label come first, then what is wrong there (itself one of these sentences).
RULES += [
    (
        re.compile(r"^line (?P<line>\d+): (?P<rest>.+)$", re.DOTALL),
        lambda m: (
            _("line %(line)s: %(reason)s")
            % {"line": m["line"], "reason": translate_reason(m["rest"])}
        ),
    ),
    (
        re.compile(r"^(?P<label>\d+\.(?:\.\.)? \S+): (?P<rest>.+)$", re.DOTALL),
        lambda m: f"{m['label']}: {translate_reason(m['rest'])}",
    ),
    (
        re.compile(r"^malformed tag pair (?P<text>.+)$", re.DOTALL),
        lambda m: _("malformed tag pair %(text)s") % m.groupdict(),
    ),
    (
        re.compile(r"^tag (?P<tag>\S+) appears twice$"),
        lambda m: _("tag %(tag)s appears twice") % m.groupdict(),
    ),
    (
        re.compile(r"^the comment is not closed with '}'$"),
        lambda m: _("the comment is not closed with '}'"),
    ),
    (
        re.compile(
            r"^a tag pair has at most (?P<limit>\d+) characters, not (?P<size>\d+): (?P<start>.+)$",
            re.DOTALL,
        ),
        lambda m: (
            _("a tag pair has at most %(limit)s characters, not %(size)s: %(start)s")
            % m.groupdict()
        ),
    ),
    (
        re.compile(r"^a comment has at most (?P<limit>\d+) characters, not (?P<size>\d+)$"),
        lambda m: _("a comment has at most %(limit)s characters, not %(size)s") % m.groupdict(),
    ),
    (
        re.compile(
            r"^a comment has at most (?P<limit>\d+) characters "
            r"\(all the comments at one place together\), not (?P<size>\d+)$"
        ),
        lambda m: (
            _(
                "a comment has at most %(limit)s characters "
                "(all the comments at one place together), not %(size)s"
            )
            % m.groupdict()
        ),
    ),
    (
        re.compile(
            r"^the game has no result token \(1-0, 0-1, 1/2-1/2 or \*\) before line (?P<line>\d+)$"
        ),
        lambda m: (
            _("the game has no result token (1-0, 0-1, 1/2-1/2 or *) before line %(line)s")
            % m.groupdict()
        ),
    ),
    (
        re.compile(
            r"^the game has no result token \(1-0, 0-1, 1/2-1/2 or \*\) at the end of the input$"
        ),
        lambda m: _("the game has no result token (1-0, 0-1, 1/2-1/2 or *) at the end of the file"),
    ),
    (
        re.compile(r"^turn number (?P<found>.+) where (?P<wanted>.+) belongs$", re.DOTALL),
        lambda m: _("turn number %(found)s where %(wanted)s belongs") % m.groupdict(),
    ),
    (
        re.compile(
            r"^unexpected (?P<text>.+) in the movetext: (?P<bad>.+); the movetext is written in ASCII$",
            re.DOTALL,
        ),
        lambda m: (
            _("unexpected %(text)s in the movetext: %(bad)s; the movetext is written in ASCII")
            % {"text": m["text"], "bad": translate_reason(m["bad"])}
        ),
    ),
    (
        re.compile(r"^non-ASCII character (?P<char>.+) \((?P<code>U\+[0-9A-F]+)\)$", re.DOTALL),
        lambda m: _("non-ASCII character %(char)s (%(code)s)") % m.groupdict(),
    ),
    (
        re.compile(r"^non-ASCII whitespace (?P<char>.+) \((?P<code>U\+[0-9A-F]+)\)$", re.DOTALL),
        lambda m: _("non-ASCII whitespace %(char)s (%(code)s)") % m.groupdict(),
    ),
    (
        re.compile(r"^unexpected (?P<text>.+) in the movetext$", re.DOTALL),
        lambda m: _("unexpected %(text)s in the movetext") % m.groupdict(),
    ),
    (
        re.compile(
            r"^the Result tag says (?P<tag>.+) but the movetext ends with (?P<result>.+)$",
            re.DOTALL,
        ),
        lambda m: (
            _("the Result tag says %(tag)s but the movetext ends with %(result)s") % m.groupdict()
        ),
    ),
    (
        re.compile(r"^the Termination tag says (?P<tag>.+) but the game is not over$", re.DOTALL),
        lambda m: _("the Termination tag says %(tag)s but the game is not over") % m.groupdict(),
    ),
    (
        re.compile(r"^the Position tag is not the standard start: add an Opening tag$"),
        lambda m: _("the Position tag is not the standard start: add an Opening tag"),
    ),
    (
        re.compile(r"^Board tag: a game on a custom board needs a Position tag$"),
        lambda m: _("Board tag: a game on a custom board needs a Position tag"),
    ),
    (
        re.compile(
            r"^Board tag (?P<board>.+) differs from the board of the Position tag$", re.DOTALL
        ),
        lambda m: (
            _("Board tag %(board)s differs from the board of the Position tag") % m.groupdict()
        ),
    ),
]


def translate_reason(reason: str) -> str:
    """The engine's reason in the active language (unchanged when not recognised)."""
    for pattern, build in RULES:
        match = pattern.match(reason)
        if match:
            return build(match)
    return reason
