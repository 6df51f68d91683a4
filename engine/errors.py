"""The engine's exceptions: every one of them is a :class:`ValueError`.

Parsing has two layers, as in python-chess: text that is not a turn at all
raises :class:`InvalidTurnError`; a well-formed turn that the rules forbid in
a given position raises :class:`IllegalTurnError`.

Messages name the input; an input longer than 80 characters is shown by its
start and its length (the full text stays in the ``text`` attribute). An
input that is not text at all (None, a number, bytes) is an
:class:`InvalidTurnError` too, shown by its repr (``text`` holds that).
"""

from __future__ import annotations

from engine._text import shown_value

__all__ = [
    "IllegalTurnError",
    "InvalidBoardError",
    "InvalidPositionError",
    "InvalidTurnError",
]


class InvalidBoardError(ValueError):
    """A board description (column ranges) is malformed or not a legal board."""


class InvalidPositionError(ValueError):
    """A position string (RULES.md §7) is malformed or describes no legal position."""


class _TurnError(ValueError):
    """Common base of the two turn errors: keeps the input, position and reason."""

    kind = "turn"

    def __init__(self, text: object, reason: str, position: str | None = None) -> None:
        shown_text = shown_value(text)
        self.text: str = text if isinstance(text, str) else shown_text
        self.reason = reason
        self.position = position
        where = f" in {position!r}" if position is not None else ""
        super().__init__(f"{self.kind} {shown_text}{where}: {reason}")


class InvalidTurnError(_TurnError):
    """The text is not a turn in the notation of RULES.md §6 (a syntax error).

    >>> str(InvalidTurnError("D2-", "expected a cell after '-'"))
    "invalid turn 'D2-': expected a cell after '-'"
    """

    kind = "invalid turn"


class IllegalTurnError(_TurnError):
    """The turn is well formed but not legal in the position.

    >>> str(IllegalTurnError("D2-D4", "D2 has no legs", "D2W00,D6B00 w 0-0"))
    "illegal turn 'D2-D4' in 'D2W00,D6B00 w 0-0': D2 has no legs"
    """

    kind = "illegal turn"
