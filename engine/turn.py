"""Turns and their notation (RULES.md §6)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from engine._text import ASCII_SPACE, decimal, non_ascii, shown
from engine.errors import InvalidTurnError

__all__ = ["ACTION_KINDS", "ActionKind", "Turn"]

ActionKind = Literal["create", "leg", "pincer"]
ACTION_KINDS: tuple[ActionKind, ...] = ("create", "leg", "pincer")
_SUFFIX = {"create": "", "leg": "L", "pincer": "P"}
_KIND_OF_SUFFIX: dict[str, ActionKind] = {"": "create", "L": "leg", "P": "pincer"}

_CELL = r"[A-Z][0-9]+"
_MOVE_RE = re.compile(rf"({_CELL})([-X])({_CELL})")
_ACTION_RE = re.compile(rf"({_CELL})([LP]?)")
_CELL_RE = re.compile(r"([A-Z])([0-9]+)")


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn: an optional move and an optional grow action.

    ``Turn()`` (neither) is a pass. Build turns with :meth:`parse`; ``str()``
    gives the canonical notation and ``repr()`` an expression that rebuilds it.

    >>> turn = Turn.parse("d2-d4 , d4p")
    >>> turn
    Turn.parse('D2-D4,D4P')
    >>> turn.move, turn.action, turn.is_pass
    (('D2', 'D4', False), ('D4', 'pincer'), False)
    >>> str(Turn.parse("e3xe5,f4")), str(Turn.parse("PASS"))
    ('E3xE5,F4', 'pass')
    >>> Turn.parse("D2L") == Turn(action=("D2", "leg"))
    True
    """

    #: ``(from_cell, to_cell, is_attack)`` or None
    move: tuple[str, str, bool] | None = None
    #: ``(cell, kind)`` with kind ``"create"``, ``"leg"`` or ``"pincer"``, or None
    action: tuple[str, ActionKind] | None = None

    @property
    def is_pass(self) -> bool:
        """True for the turn with neither a move nor an action."""
        return self.move is None and self.action is None

    def __str__(self) -> str:
        parts = []
        if self.move is not None:
            frm, to, attack = self.move
            parts.append(f"{frm}{'x' if attack else '-'}{to}")
        if self.action is not None:
            cell, kind = self.action
            parts.append(cell + _SUFFIX[kind])
        return ",".join(parts) if parts else "pass"

    def __repr__(self) -> str:
        return f"Turn.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Turn:
        """Parse a turn (syntax only; legality is :meth:`Position.parse_turn`'s job).

        Accepts lower case and spaces around the comma; raises
        :class:`InvalidTurnError` (a ValueError) saying why otherwise. Only
        ASCII is notation: ``str.upper()`` would read ``'paſs'`` as ``PASS``.

        >>> Turn.parse("D2-D4 D4P")
        Traceback (most recent call last):
        ...
        engine.errors.InvalidTurnError: invalid turn 'D2-D4 D4P': unexpected space (spaces are allowed only around the comma)
        >>> Turn.parse("pa\u017fs")
        Traceback (most recent call last):
        ...
        engine.errors.InvalidTurnError: invalid turn 'paſs': non-ASCII character 'ſ' (U+017F): a turn is written in ASCII
        """
        if cls is Turn and type(text) is str and len(text) <= _REMEMBERED_LENGTH:
            # Turns are immutable and the same texts come back again and again (a
            # server replays a game's stored turns at every new turn): remember them.
            return _parse_remembered(text)
        return cls._parse(text)

    @classmethod
    def _parse(cls, text: str) -> Turn:
        if not isinstance(text, str):
            raise InvalidTurnError(text, f"a turn must be text, not {type(text).__name__}")
        bad = non_ascii(text)
        if bad is not None:
            raise InvalidTurnError(text, f"{bad}: a turn is written in ASCII")
        s = text.strip(ASCII_SPACE).upper()
        if not s:
            raise InvalidTurnError(text, "empty turn")
        if s == "PASS":
            return cls()
        parts = s.split(",", 2)  # (a third part is an error: no need to split it further)
        if len(parts) > 2:
            raise InvalidTurnError(text, "a turn has at most one comma: '<move>,<action>'")
        if len(parts) == 2:
            first, second = parts[0].strip(ASCII_SPACE), parts[1].strip(ASCII_SPACE)
            if not first:
                raise InvalidTurnError(text, "a move is missing before the comma")
            if not second:
                raise InvalidTurnError(text, "an action is missing after the comma")
            move = _parse_move(text, first)
            if move is None:
                raise InvalidTurnError(
                    text,
                    f"{shown(first)} before the comma is not a move such as 'D2-D4' or 'E3xE5'",
                )
            action = _parse_action(text, second)
            if action is None:
                if _parse_move(text, second) is not None:
                    raise InvalidTurnError(text, "a turn has at most one move")
                raise InvalidTurnError(
                    text, f"{shown(second)} is not an action such as 'E4', 'D2L' or 'D2P'"
                )
            return cls(move, action)
        move = _parse_move(text, s)
        if move is not None:
            return cls(move, None)
        action = _parse_action(text, s)
        if action is not None:
            return cls(None, action)
        if "-" in s or re.search(r"[0-9]X", s):
            raise InvalidTurnError(
                text, "a move is '<from>-<to>' or '<from>x<to>' with two cells, such as 'D2-D4'"
            )
        raise InvalidTurnError(
            text,
            "expected 'pass', an action ('E4', 'D2L', 'D2P'), a move ('D2-D4', 'E3xE5') "
            "or '<move>,<action>'",
        )


# Only texts that parse are remembered (an exception is not cached), and only short
# ones: a turn padded with a megabyte of spaces is a turn too, but kept by the cache.
_parse_remembered = functools.lru_cache(maxsize=16384)(Turn._parse)
_REMEMBERED_LENGTH = 64


def _check_cell(text: str, cell: str) -> str:
    m = _CELL_RE.fullmatch(cell)
    assert m is not None
    row = m.group(2)
    number = decimal(row, 2)  # never int() of thousands of digits
    if number is None:
        raise InvalidTurnError(text, f"a row is a number 1-99, not one of {len(row)} digits")
    if row.startswith("0") or not 1 <= number <= 99:
        raise InvalidTurnError(text, f"{shown(cell)}: a row is a number 1-99 without leading zeros")
    return cell


def _parse_move(text: str, s: str) -> tuple[str, str, bool] | None:
    if " " in s:
        raise InvalidTurnError(text, "unexpected space (spaces are allowed only around the comma)")
    m = _MOVE_RE.fullmatch(s)
    if m is None:
        return None
    frm, to = _check_cell(text, m.group(1)), _check_cell(text, m.group(3))
    if frm == to:
        raise InvalidTurnError(text, "a move must end on another cell")
    return frm, to, m.group(2) == "X"


def _parse_action(text: str, s: str) -> tuple[str, ActionKind] | None:
    if " " in s:
        raise InvalidTurnError(text, "unexpected space (spaces are allowed only around the comma)")
    m = _ACTION_RE.fullmatch(s)
    if m is None:
        return None
    return _check_cell(text, m.group(1)), _KIND_OF_SUFFIX[m.group(2)]
