"""Positions, turn generation, make/unmake and the end of the game.

A :class:`Position` keeps its state small and plain: one int bitboard per
colour over the cells of its :class:`~engine.board.Board`, two per-cell limb
arrays (legs, pincers), the supply counters, the scores and the side to move.
:meth:`Position.push` applies a turn and records what to undo;
:meth:`Position.pop` restores it.
"""

from __future__ import annotations

import enum
import random
import re
import struct
from collections.abc import Iterator
from dataclasses import dataclass

from engine._text import (
    ASCII_SPACE,
    ascii_upper,
    decimal,
    non_ascii,
    shown,
    shown_number,
    shown_value,
)
from engine.board import STANDARD_BOARD, Board, parse_cell
from engine.errors import (
    IllegalTurnError,
    InvalidBoardError,
    InvalidPositionError,
    InvalidTurnError,
)
from engine.turn import ActionKind, Turn

__all__ = [
    "MAX_ADAPTOIDS",
    "MAX_LEGS",
    "MAX_LIMBS",
    "MAX_PERFT_DEPTH",
    "MAX_PINCERS",
    "MAX_SCORE_DIGITS",
    "STANDARD_START",
    "WINNING_SCORE",
    "Color",
    "LegalTurns",
    "Outcome",
    "Piece",
    "Position",
    "Termination",
]

STANDARD_START = "D2W00,D6B00 w 0-0"
MAX_ADAPTOIDS = 12
MAX_LEGS = 12
MAX_PINCERS = 12
MAX_LIMBS = 6
WINNING_SCORE = 5

# A "raw" turn is the engine's internal form: (from, to, is_attack, cell, kind)
# with bit indices, from = -1 without a move, cell = -1 and kind = 0 without an
# action, kind 1 / 2 / 3 = create / leg / pincer.
RawTurn = tuple[int, int, bool, int, int]
# One entry of the turn stack: the raw turn, the state before it (occupancy,
# legs and pincers in supply, scores), the (cell, legs, pincers) it changed,
# and for a quiet turn (no action, no score change) the repetition key of the
# position before it (see _repetition_key below), else None.
_StackEntry = tuple[RawTurn, tuple[int, ...], list[tuple[int, int, int]], "bytes | None"]
_KIND_CODE: dict[str, int] = {"create": 1, "leg": 2, "pincer": 3}
_KIND_NAME: tuple[ActionKind | None, ...] = (None, "create", "leg", "pincer")
_PIECE_RE = re.compile(r"([A-Za-z][0-9]+)([WBwb])([0-9])([0-9])")
_SCORES_RE = re.compile(r"([0-9]+)-([0-9]+)")
_SIDE_AND_SCORES = struct.Struct("<BII")
_FIELD_SEPARATOR_RE = re.compile(f"[{ASCII_SPACE}]+")
#: a score in a position string has at most this many digits (leading zeros aside)
MAX_SCORE_DIGITS = 9
#: the deepest :meth:`Position.perft` (from the start: depth 6 counts 21.7 million
#: sequences in seconds, depth 8 about fifty billion in hours)
MAX_PERFT_DEPTH = 8


class Color(enum.Enum):
    """A side. ``Color.WHITE.value == "white"``.

    >>> Color.WHITE.other, Color.BLACK.letter
    (<Color.BLACK: 'black'>, 'b')
    """

    WHITE = "white"
    BLACK = "black"

    @property
    def other(self) -> Color:
        """The opponent."""
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    @property
    def letter(self) -> str:
        """``"w"`` or ``"b"``, as in position strings."""
        return "w" if self is Color.WHITE else "b"

    @property
    def index(self) -> int:
        """0 for White, 1 for Black (the order of ``Position.scores``)."""
        return 0 if self is Color.WHITE else 1

    @property
    def title(self) -> str:
        """``"White"`` or ``"Black"``."""
        return self.value.capitalize()


_COLORS = (Color.WHITE, Color.BLACK)
_TITLES = ("White", "Black")


@dataclass(frozen=True, slots=True)
class Piece:
    """An adaptoid on a cell.

    >>> piece = Piece("D4", Color.BLACK, 2, 2)
    >>> str(piece), piece.limbs
    ('D4B22', 4)
    >>> piece
    Piece.parse('D4B22')
    >>> Piece.parse("d4b22") == piece
    True
    """

    cell: str
    color: Color
    legs: int
    pincers: int

    @property
    def limbs(self) -> int:
        """Legs plus pincers."""
        return self.legs + self.pincers

    def __str__(self) -> str:
        return f"{self.cell}{self.color.letter.upper()}{self.legs}{self.pincers}"

    def __repr__(self) -> str:
        return f"Piece.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Piece:
        """Parse ``<cell><W|B><legs><pincers>`` as in position strings.

        Raises :class:`InvalidPositionError` (a ValueError) if it is not one.

        >>> Piece.parse("D0W00")
        Traceback (most recent call last):
        ...
        engine.errors.InvalidPositionError: 'D0W00' is not a piece such as 'D4B22'
        """
        m = _PIECE_RE.fullmatch(text) if isinstance(text, str) else None
        if (
            m is None
            or parse_cell(m.group(1)) is None
            or int(m.group(3)) + int(m.group(4)) > MAX_LIMBS
        ):
            raise InvalidPositionError(f"{shown_value(text)} is not a piece such as 'D4B22'")
        color = Color.WHITE if m.group(2) in "Ww" else Color.BLACK
        return cls(m.group(1).upper(), color, int(m.group(3)), int(m.group(4)))


class Termination(enum.Enum):
    """Why a game ended."""

    CAPTURES = "captures"
    """A player reached a score of 5."""
    ELIMINATION = "elimination"
    """A player has no adaptoid left on the board."""
    REPETITION = "repetition"
    """The same position (pieces, side to move, scores) occurred a third time."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the reason and the winner (None for a draw).

    >>> Outcome(Termination.CAPTURES, Color.BLACK).result()
    '0-1'
    """

    termination: Termination
    winner: Color | None

    def result(self) -> str:
        """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is Color.WHITE else "0-1"


# The bit indices set in a mask, ascending: one definition, on Board.
_bits = Board.bits


class LegalTurns:
    """A lazy view of the legal turns of a position.

    Supports ``iter()``, ``turn in view``, ``bool(view)`` and ``view.count()``
    without building a list. It is empty once the game is over (including a
    draw by repetition). Iteration order is not specified.

    >>> pos = Position.standard()
    >>> pos.legal_turns.count(), bool(pos.legal_turns)
    (8, True)
    >>> Turn.parse("D2L") in pos.legal_turns, Turn.parse("D2-D3") in pos.legal_turns
    (True, False)
    >>> sorted(str(t) for t in pos.legal_turns)
    ['C1', 'C2', 'D1', 'D2L', 'D2P', 'D3', 'E2', 'E3']
    """

    __slots__ = ("_position",)

    def __init__(self, position: Position) -> None:
        self._position = position

    def __iter__(self) -> Iterator[Turn]:
        pos = self._position
        if pos.outcome() is not None:
            return iter(())
        to_turn = pos._raw_to_turn
        return (to_turn(raw) for raw in pos._raw_turns())

    def __contains__(self, turn: object) -> bool:
        if not isinstance(turn, Turn):
            return False
        pos = self._position
        return pos._check(turn, str(turn), raise_errors=False) is not None

    def __bool__(self) -> bool:
        # A position that is not over always has a turn: an action, or a pass.
        return self._position.outcome() is None

    def count(self) -> int:
        """The number of legal turns, counted without building them."""
        pos = self._position
        if pos.outcome() is not None:
            return 0
        return pos._count_raw()

    def __repr__(self) -> str:
        shown = ", ".join(sorted(str(t) for t in self))
        return f"<LegalTurns at {id(self):#x} ({shown})>"


class Position:
    """An Adaptoid position, with the stack of turns pushed since it was set up.

    >>> pos = Position.standard()
    >>> pos.push_text("D2L")
    Turn.parse('D2L')
    >>> pos.push_text("c6")
    Turn.parse('C6')
    >>> pos.push_text("D2-D3,D3P")
    Turn.parse('D2-D3,D3P')
    >>> pos
    Position.from_string('C6B00,D3W11,D6B00 b 0-0')
    >>> print(pos)
    C6B00,D3W11,D6B00 b 0-0
    >>> pos.pop(), pos.ply
    (Turn.parse('D2-D3,D3P'), 2)
    """

    __slots__ = (
        "_legs",
        "_nl",
        "_np",
        "_occ",
        "_pins",
        "_runs",
        "_score",
        "_seen",
        "_side",
        "_stack",
        "board",
    )

    board: Board

    def __init__(self, text: str = STANDARD_START) -> None:
        """Set up the position of a position string (default: the standard start)."""
        self._set(text)

    # -- construction ---------------------------------------------------------

    @classmethod
    def standard(cls) -> Position:
        """The standard start, ``D2W00,D6B00 w 0-0``."""
        return cls(STANDARD_START)

    @classmethod
    def from_string(cls, text: str) -> Position:
        """Parse a position string (RULES.md §7); raises :class:`InvalidPositionError`.

        >>> Position.from_string("d4b22,D2W10 b 1-0 A1-4,B1-5,C1-6,D1-7,E2-7,F3-7,G4-7")
        Position.from_string('D2W10,D4B22 b 1-0')
        >>> Position.from_string("D2W07 w 0-0")
        Traceback (most recent call last):
        ...
        engine.errors.InvalidPositionError: invalid position 'D2W07 w 0-0': D2W07 has 7 limbs (at most 6)
        """
        return cls(text)

    @classmethod
    def pie_setup(cls, white_cell: str, black_cell: str, board: Board = STANDARD_BOARD) -> Position:
        """The pie opening: one limbless adaptoid of each colour, White to move.

        (The second player's colour choice is the platform's job.)

        >>> Position.pie_setup("c3", "E5")
        Position.from_string('C3W00,E5B00 w 0-0')
        """
        cells = []
        for cell in (white_cell, black_cell):
            if not isinstance(cell, str) or ascii_upper(cell) not in board.index:
                raise InvalidPositionError(
                    f"pie setup: {shown_value(cell)} is not a cell of the board"
                )
            cells.append(ascii_upper(cell))
        if cells[0] == cells[1]:
            raise InvalidPositionError(f"pie setup: both adaptoids on {cells[0]}")
        pieces = sorted([(board.index[cells[0]], "W"), (board.index[cells[1]], "B")])
        text = ",".join(f"{board.names[i]}{c}00" for i, c in pieces) + " w 0-0"
        if not board.is_standard:
            text += f" {board}"
        return cls(text)

    def _set(self, text: str) -> None:
        if not isinstance(text, str):
            raise InvalidPositionError(
                f"a position must be given as text, not {type(text).__name__}"
            )

        def fail(reason: str) -> InvalidPositionError:
            return InvalidPositionError(f"invalid position {shown(text, 200)}: {reason}")

        bad = non_ascii(text)
        if bad is not None:
            raise fail(f"{bad}: a position string is written in ASCII")
        stripped = text.strip(ASCII_SPACE)
        fields = _FIELD_SEPARATOR_RE.split(stripped) if stripped else []
        if len(fields) not in (3, 4):
            raise fail(
                "expected '<pieces> <side> <white score>-<black score> [<board>]', "
                f"got {len(fields)} field{'s' if len(fields) != 1 else ''}"
            )
        board = STANDARD_BOARD
        if len(fields) == 4:
            try:
                board = Board.parse(fields[3])
            except InvalidBoardError as exc:
                raise fail(str(exc)) from None
        size = len(board.neighbour_masks)
        occ = [0, 0]
        legs = [0] * size
        pins = [0] * size
        nl = [0, 0]
        np_ = [0, 0]
        if fields[0] != "-":
            for item in fields[0].split(","):
                m = _PIECE_RE.fullmatch(item)
                if m is None:
                    raise fail(
                        f"{shown(item)} is not a piece such as 'D4B22' "
                        "(cell, W or B, legs, pincers)"
                    )
                name = m.group(1).upper()
                i = board.index.get(name)
                if i is None:
                    shown_name = name if len(name) <= 40 else shown(name, 40)
                    raise fail(f"cell {shown_name} is not on the board")
                if (occ[0] | occ[1]) >> i & 1:
                    raise fail(f"cell {name} is listed twice")
                c = 0 if m.group(2) in "Ww" else 1
                lg, pc = int(m.group(3)), int(m.group(4))
                if lg + pc > MAX_LIMBS:
                    raise fail(f"{item} has {lg + pc} limbs (at most {MAX_LIMBS})")
                occ[c] |= 1 << i
                legs[i], pins[i] = lg, pc
                nl[c] += lg
                np_[c] += pc
        side = {"w": 0, "b": 1}.get(fields[1].lower())
        if side is None:
            raise fail(f"the side to move is 'w' or 'b', not {shown(fields[1])}")
        m = _SCORES_RE.fullmatch(fields[2])
        if m is None:
            raise fail(f"the scores are '<white>-<black>' such as '0-0', not {shown(fields[2])}")
        scores: list[int] = []
        for digits in m.groups():
            score = decimal(digits, MAX_SCORE_DIGITS)  # never int() of thousands of digits
            if score is None:
                raise fail(
                    f"a score has at most {MAX_SCORE_DIGITS} digits, not {len(digits.lstrip('0'))}"
                )
            scores.append(score)
        for c in (0, 1):
            for what, n, limit in (
                ("adaptoids", occ[c].bit_count(), MAX_ADAPTOIDS),
                ("legs", nl[c], MAX_LEGS),
                ("pincers", np_[c], MAX_PINCERS),
            ):
                if n > limit:
                    raise fail(f"{_TITLES[c]} has {n} {what} on the board (at most {limit})")
        self.board = board
        self._occ = occ
        self._legs = legs
        self._pins = pins
        self._nl = nl
        self._np = np_
        self._score = scores
        self._side = side
        self._stack: list[_StackEntry] = []
        # The repetition keys of the current run of quiet turns, counted (a position
        # repeats only within such a run), and the counts of the runs below it, each
        # with the stack height of the turn that ended it: a repetition check is one
        # look-up, not a walk back through the run.
        self._seen: dict[bytes, int] = {}
        self._runs: list[tuple[int, dict[bytes, int]]] = []

    def copy(self) -> Position:
        """An independent copy, including the turn stack (so repetition still counts)."""
        other = Position.__new__(Position)
        other.board = self.board
        other._occ = self._occ[:]
        other._legs = self._legs[:]
        other._pins = self._pins[:]
        other._nl = self._nl[:]
        other._np = self._np[:]
        other._score = self._score[:]
        other._side = self._side
        other._stack = self._stack[:]
        other._seen = self._seen.copy()
        # deep: a run's counts are changed again once the turn that ended it is popped
        other._runs = [(height, seen.copy()) for height, seen in self._runs]
        return other

    def root(self) -> Position:
        """A copy of the position before the first pushed turn.

        >>> pos = Position.standard(); _ = pos.push_text("D3")
        >>> pos.root()
        Position.from_string('D2W00,D6B00 w 0-0')
        """
        other = self.copy()
        while other._stack:
            other.pop()
        return other

    # -- plain queries --------------------------------------------------------

    @property
    def side_to_move(self) -> Color:
        """The colour of the player to move."""
        return _COLORS[self._side]

    @property
    def scores(self) -> tuple[int, int]:
        """``(white, black)``: adaptoids captured by White, by Black."""
        return self._score[0], self._score[1]

    @property
    def ply(self) -> int:
        """The number of turns pushed since this position was set up."""
        return len(self._stack)

    @property
    def turn_stack(self) -> list[Turn]:
        """The turns pushed since this position was set up, oldest first."""
        return [self._raw_to_turn(entry[0]) for entry in self._stack]

    def pieces(self) -> list[Piece]:
        """All adaptoids on the board, in column-then-row order."""
        names = self.board.names
        w = self._occ[0]
        out = []
        for i in _bits(self._occ[0] | self._occ[1]):
            color = Color.WHITE if w >> i & 1 else Color.BLACK
            out.append(Piece(names[i], color, self._legs[i], self._pins[i]))
        return out

    def piece_at(self, cell: str) -> Piece | None:
        """The adaptoid on ``cell`` (case-insensitive), or None; KeyError off the board.

        >>> Position.standard().piece_at("d6")
        Piece.parse('D6B00')
        """
        name = ascii_upper(cell)
        i = self.board.index[name]
        for c in (0, 1):
            if self._occ[c] >> i & 1:
                return Piece(name, _COLORS[c], self._legs[i], self._pins[i])
        return None

    def to_string(self) -> str:
        """The canonical position string (RULES.md §7)."""
        names = self.board.names
        w = self._occ[0]
        legs, pins = self._legs, self._pins
        items = [
            f"{names[i]}{'W' if w >> i & 1 else 'B'}{legs[i]}{pins[i]}"
            for i in _bits(w | self._occ[1])
        ]
        text = f"{','.join(items) or '-'} {'wb'[self._side]} {self._score[0]}-{self._score[1]}"
        if not self.board.is_standard:
            text += f" {self.board}"
        return text

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"Position.from_string({self.to_string()!r})"

    def __eq__(self, other: object) -> bool:
        """Positions are equal when board, pieces, side to move and scores are (stacks aside)."""
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key() and self.board == other.board

    __hash__ = None  # type: ignore[assignment]  # mutable

    def _key(self) -> tuple[object, ...]:
        return (
            self._occ[0],
            self._occ[1],
            tuple(self._legs),
            tuple(self._pins),
            self._side,
            self._score[0],
            self._score[1],
        )

    # -- turns: conversion ----------------------------------------------------

    def _raw_to_turn(self, raw: RawTurn) -> Turn:
        names = self.board.names
        frm, to, attack, cell, kind = raw
        move = (names[frm], names[to], attack) if frm >= 0 else None
        action = (names[cell], _KIND_NAME[kind]) if kind else None
        return Turn(move, action)  # type: ignore[arg-type]

    def _turn_to_raw(self, turn: Turn) -> RawTurn:
        index = self.board.index
        if turn.move is not None:
            frm, to, attack = index[turn.move[0]], index[turn.move[1]], turn.move[2]
        else:
            frm, to, attack = -1, -1, False
        if turn.action is not None:
            cell, kind = index[turn.action[0]], _KIND_CODE[turn.action[1]]
        else:
            cell, kind = -1, 0
        return frm, to, attack, cell, kind

    # -- make / unmake --------------------------------------------------------

    def push(self, turn: Turn) -> None:
        """Apply a turn. The fast path: the turn is NOT checked for legality.

        Pushing an illegal turn leaves the position in an unspecified state;
        use :meth:`push_text` or :meth:`parse_turn` for input from outside.
        """
        self._push_raw(self._turn_to_raw(turn))

    def push_text(self, text: str) -> Turn:
        """Parse, check and apply a turn; return it.

        Raises :class:`InvalidTurnError` or :class:`IllegalTurnError` (and
        leaves the position unchanged).

        >>> pos = Position.standard()
        >>> pos.push_text("D2-D4")
        Traceback (most recent call last):
        ...
        engine.errors.IllegalTurnError: illegal turn 'D2-D4' in 'D2W00,D6B00 w 0-0': D2 has no legs
        """
        try:
            turn = Turn.parse(text)
        except InvalidTurnError as exc:
            raise InvalidTurnError(text, exc.reason, self.to_string()) from None
        raw = self._check(turn, text, raise_errors=True)
        assert raw is not None
        self._push_raw(raw)
        return turn

    def parse_turn(self, text: str) -> Turn:
        """Parse and check a turn without applying it.

        >>> Position.standard().parse_turn("d2p")
        Turn.parse('D2P')
        >>> Position.standard().parse_turn("D2-D3")
        Traceback (most recent call last):
        ...
        engine.errors.IllegalTurnError: illegal turn 'D2-D3' in 'D2W00,D6B00 w 0-0': D2 has no legs
        >>> Position.from_string("D2W00,D3W10,D6B00 w 0-0").parse_turn("D3-D4")
        Traceback (most recent call last):
        ...
        engine.errors.IllegalTurnError: illegal turn 'D3-D4' in 'D2W00,D3W10,D6B00 w 0-0': the action is mandatory: 15 actions are available
        """
        try:
            turn = Turn.parse(text)
        except InvalidTurnError as exc:
            raise InvalidTurnError(text, exc.reason, self.to_string()) from None
        self._check(turn, text, raise_errors=True)
        return turn

    def pop(self) -> Turn:
        """Undo the last pushed turn and return it (IndexError if there is none)."""
        raw = self._stack[-1][0]
        self._pop_raw()
        return self._raw_to_turn(raw)

    def peek(self) -> Turn:
        """The last pushed turn (IndexError if there is none)."""
        return self._raw_to_turn(self._stack[-1][0])

    def _push_raw(self, raw: RawTurn) -> None:
        frm, to, _attack, cell, kind = raw
        s = self._side
        o = s ^ 1
        occ = self._occ
        legs = self._legs
        pins = self._pins
        nl = self._nl
        np_ = self._np
        score = self._score
        saved = (occ[0], occ[1], nl[0], nl[1], np_[0], np_[1], score[0], score[1])
        changes: list[tuple[int, int, int]] = []
        over = False
        if frm >= 0:
            bf = 1 << frm
            bt = 1 << to
            lg = legs[frm]
            pc = pins[frm]
            changes.append((frm, lg, pc))
            legs[frm] = 0
            pins[frm] = 0
            if occ[o] & bt:
                ep = pins[to]
                el = legs[to]
                changes.append((to, el, ep))
                occ[o] ^= bt
                nl[o] -= el
                np_[o] -= ep
                score[s] += 1
                if pc > ep:
                    occ[s] ^= bf | bt
                    legs[to] = lg
                    pins[to] = pc
                else:
                    occ[s] ^= bf
                    nl[s] -= lg
                    np_[s] -= pc
                    score[o] += 1
                    legs[to] = 0
                    pins[to] = 0
                over = score[s] >= 5 or score[o] >= 5 or not occ[o] or not occ[s]
            else:
                changes.append((to, 0, 0))
                occ[s] ^= bf | bt
                legs[to] = lg
                pins[to] = pc
        if not over:
            if kind == 1:
                occ[s] |= 1 << cell
                changes.append((cell, 0, 0))
            elif kind == 2:
                changes.append((cell, legs[cell], pins[cell]))
                legs[cell] += 1
                nl[s] += 1
            elif kind == 3:
                changes.append((cell, legs[cell], pins[cell]))
                pins[cell] += 1
                np_[s] += 1
            # starvation of the enemy's adaptoids
            board = self.board
            empty = board.mask & ~(occ[0] | occ[1])
            nbm = board.neighbour_masks
            m = occ[o]
            while m:
                low = m & -m
                m ^= low
                i = low.bit_length() - 1
                limbs = legs[i] + pins[i]
                if limbs and limbs > (nbm[i] & empty).bit_count():
                    changes.append((i, legs[i], pins[i]))
                    occ[o] ^= low
                    nl[o] -= legs[i]
                    np_[o] -= pins[i]
                    legs[i] = 0
                    pins[i] = 0
                    score[s] += 1
        self._side = o
        # A turn without an action and without a score change keeps the
        # material: only such turns can lead back to an earlier position.
        # They keep a compact key of the position before them, not a copy.
        rep: bytes | None = None
        if kind == 0 and score[0] == saved[6] and score[1] == saved[7]:
            undone = {i: (lg, pc) for i, lg, pc in reversed(changes)}
            rep = _repetition_key(saved[0], saved[1], legs, pins, undone, s, saved[6], saved[7])
            seen = self._seen
            seen[rep] = seen.get(rep, 0) + 1
        elif self._seen:  # the run ends: a new one begins
            self._runs.append((len(self._stack), self._seen))
            self._seen = {}
        self._stack.append((raw, saved, changes, rep))

    def _pop_raw(self) -> None:
        _raw, saved, changes, rep = self._stack.pop()
        if rep is not None:
            seen = self._seen
            left = seen[rep] - 1
            if left:
                seen[rep] = left
            else:
                del seen[rep]
        elif self._runs and self._runs[-1][0] == len(self._stack):
            self._seen = self._runs.pop()[1]  # back in the run this turn ended
        occ = self._occ
        nl = self._nl
        np_ = self._np
        score = self._score
        occ[0], occ[1], nl[0], nl[1], np_[0], np_[1], score[0], score[1] = saved
        legs = self._legs
        pins = self._pins
        for i, lg, pc in reversed(changes):
            legs[i] = lg
            pins[i] = pc
        self._side ^= 1

    # -- end of the game ------------------------------------------------------

    def _state_outcome(self) -> Outcome | None:
        occ = self._occ
        score = self._score
        white_won = score[0] >= WINNING_SCORE or not occ[1]
        black_won = score[1] >= WINNING_SCORE or not occ[0]
        if not (white_won or black_won):
            return None
        if white_won and black_won:
            # both at once: the player who made the last move wins
            w = self._side ^ 1
        else:
            w = 0 if white_won else 1
        why = Termination.CAPTURES if score[w] >= WINNING_SCORE else Termination.ELIMINATION
        return Outcome(why, _COLORS[w])

    def is_repetition(self, count: int = 3) -> bool:
        """True if the current position occurred ``count`` times since the root.

        Only turns without an action and without a capture can repeat a
        position, so only the positions since the last turn that changed
        material or scores count. Each such turn keeps the repetition key of
        the position before it: a few bytes per adaptoid that name the
        position exactly (no hash collision can make or miss a repetition),
        not a copy of it; the keys of the current run are counted in a table
        as they are pushed, so a check costs the same at any length of game.
        """
        stack = self._stack
        if len(stack) < 2 * (count - 1) or stack[-1][3] is None:
            return count <= 1
        occ = self._occ
        score = self._score
        current = _repetition_key(
            occ[0], occ[1], self._legs, self._pins, {}, self._side, score[0], score[1]
        )
        return 1 + self._seen.get(current, 0) >= count

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on.

        >>> Position.from_string("D2W00,D6B00 b 5-3").outcome()
        Outcome(termination=<Termination.CAPTURES: 'captures'>, winner=<Color.WHITE: 'white'>)
        >>> Position.from_string("D2W00 b 0-0").outcome().result()
        '1-0'
        >>> Position.standard().outcome() is None
        True
        """
        result = self._state_outcome()
        if result is None and self.is_repetition(3):
            result = Outcome(Termination.REPETITION, None)
        return result

    def is_game_over(self) -> bool:
        """True once :meth:`outcome` is not None."""
        return self.outcome() is not None

    def result(self) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` while the game goes on."""
        outcome = self.outcome()
        return "*" if outcome is None else outcome.result()

    # -- turn generation ------------------------------------------------------

    @property
    def legal_turns(self) -> LegalTurns:
        """The legal turns, as a lazy :class:`LegalTurns` view."""
        return LegalTurns(self)

    def _targets(self, f: int, empty: int, enemy: int) -> tuple[int, int, int]:
        """``(empty destinations, reachable enemies, attackable enemies)`` of cell ``f``.

        Reachability is a flood fill: ``legs - 1`` dilations within the empty
        cells give the cells the adaptoid can pass through; one more dilation
        gives the destinations (empty) and the enemies it can enter.
        """
        lg = self._legs[f]
        if not lg:
            return 0, 0, 0
        board = self.board
        mask = board.mask
        st = board.stride
        st1 = st + 1
        reach = 1 << f
        for _ in range(lg - 1):
            grown = reach | (
                (reach << 1 | reach >> 1 | reach << st | reach >> st | reach << st1 | reach >> st1)
                & empty
            )
            if grown == reach:
                break
            reach = grown
        d = (
            reach << 1 | reach >> 1 | reach << st | reach >> st | reach << st1 | reach >> st1
        ) & mask
        enemies = d & enemy
        attackable = 0
        pc = self._pins[f]
        if pc and enemies:
            pins = self._pins
            m = enemies
            while m:
                low = m & -m
                m ^= low
                if pins[low.bit_length() - 1] <= pc:
                    attackable |= low
        return d & empty, enemies, attackable

    def _after_move(self, f: int, t: int) -> tuple[bool, int, int, list[int], bool, bool, bool]:
        """State after the move ``f``→``t`` (``f < 0``: no move), for the grow step.

        Returns ``(game over, own mask, empty mask, own cells under 6 limbs,
        may create, may add a leg, may add a pincer)``.
        """
        s = self._side
        occ = self._occ
        own = occ[s]
        enemy = occ[s ^ 1]
        empty = self.board.mask & ~(own | enemy)
        legs = self._legs
        pins = self._pins
        under6 = []
        m = own
        while m:
            low = m & -m
            m ^= low
            i = low.bit_length() - 1
            if legs[i] + pins[i] < MAX_LIMBS:
                under6.append(i)
        can_create = own.bit_count() < MAX_ADAPTOIDS
        can_leg = self._nl[s] < MAX_LEGS
        can_pincer = self._np[s] < MAX_PINCERS
        if f < 0:
            return False, own, empty, under6, can_create, can_leg, can_pincer
        bf = 1 << f
        bt = 1 << t
        lg = legs[f]
        pc = pins[f]
        rest = [i for i in under6 if i != f]
        if not enemy & bt:
            if lg + pc < MAX_LIMBS:
                rest.append(t)
            return False, own ^ bf | bt, empty ^ bf ^ bt, rest, can_create, can_leg, can_pincer
        score = self._score
        if pc > pins[t]:
            over = score[s] + 1 >= WINNING_SCORE or enemy == bt
            if lg + pc < MAX_LIMBS:
                rest.append(t)
            return over, own ^ bf | bt, empty | bf, rest, can_create, can_leg, can_pincer
        over = (
            score[s] + 1 >= WINNING_SCORE
            or score[s ^ 1] + 1 >= WINNING_SCORE
            or enemy == bt
            or own == bf
        )
        return (
            over,
            own ^ bf,
            empty | bf | bt,
            rest,
            True,
            self._nl[s] - lg < MAX_LEGS,
            self._np[s] - pc < MAX_PINCERS,
        )

    def _raw_turns(self) -> list[RawTurn]:
        """Every legal raw turn (the game must not be over; repetition ignored)."""
        s = self._side
        own = self._occ[s]
        enemy = self._occ[s ^ 1]
        empty = self.board.mask & ~(own | enemy)
        dilate = self.board.dilate
        out: list[RawTurn] = []

        def emit(f: int, t: int, attack: bool) -> None:
            over, own2, empty2, under6, cc, cl, cp = self._after_move(f, t)
            if over:
                out.append((f, t, attack, -1, 0))
                return
            n = len(out)
            if cc:
                for c in _bits(dilate(own2) & empty2):
                    out.append((f, t, attack, c, 1))
            if cl:
                for c in under6:
                    out.append((f, t, attack, c, 2))
            if cp:
                for c in under6:
                    out.append((f, t, attack, c, 3))
            if len(out) == n:
                out.append((f, t, attack, -1, 0))

        emit(-1, -1, False)
        for f in _bits(own):
            dests, _enemies, attackable = self._targets(f, empty, enemy)
            for t in _bits(dests):
                emit(f, t, False)
            for t in _bits(attackable):
                emit(f, t, True)
        return out

    def _count_raw(self) -> int:
        """The number of legal turns, without building them (the game must not be
        over; repetition ignored).

        For each move option (including "no move") the number of actions is
        counted from masks: empty cells next to an own adaptoid (if under 12
        adaptoids) plus own adaptoids under 6 limbs times the limb kinds still
        in supply; a game-ending move, or an option without any action, counts 1.
        """
        s = self._side
        occ = self._occ
        own = occ[s]
        enemy = occ[s ^ 1]
        board = self.board
        mask = board.mask
        st = board.stride
        st1 = st + 1
        nbm = board.neighbour_masks
        empty = mask & ~(own | enemy)
        legs = self._legs
        pins = self._pins
        nl = self._nl[s]
        np_ = self._np[s]
        can_create = own.bit_count() < MAX_ADAPTOIDS
        kinds = (nl < MAX_LEGS) + (np_ < MAX_PINCERS)
        under6 = 0
        movers = []
        m = own
        while m:
            low = m & -m
            m ^= low
            i = low.bit_length() - 1
            lg = legs[i]
            if lg + pins[i] < MAX_LIMBS:
                under6 += 1
            if lg:
                movers.append(i)
        limb_actions = under6 * kinds
        creates = (
            (
                (own << 1 | own >> 1 | own << st | own >> st | own << st1 | own >> st1) & empty
            ).bit_count()
            if can_create
            else 0
        )
        total = (creates + limb_actions) or 1
        if not movers:
            return total
        score = self._score
        mover_wins = score[s] + 1 >= WINNING_SCORE
        either_wins = mover_wins or score[s ^ 1] + 1 >= WINNING_SCORE
        last_enemy = enemy.bit_count() == 1
        for f in movers:
            bf = 1 << f
            lg = legs[f]
            pc = pins[f]
            reach = bf
            for _ in range(lg - 1):
                grown = reach | (
                    (
                        reach << 1
                        | reach >> 1
                        | reach << st
                        | reach >> st
                        | reach << st1
                        | reach >> st1
                    )
                    & empty
                )
                if grown == reach:
                    break
                reach = grown
            d = (
                reach << 1 | reach >> 1 | reach << st | reach >> st | reach << st1 | reach >> st1
            ) & mask
            dests = d & empty
            own_f = own ^ bf
            dil_f = (
                own_f << 1 | own_f >> 1 | own_f << st | own_f >> st | own_f << st1 | own_f >> st1
            ) & mask
            empty_f = empty | bf
            if dests:
                if can_create:
                    x = dests
                    while x:
                        bt = x & -x
                        x ^= bt
                        c = ((dil_f | nbm[bt.bit_length() - 1]) & (empty_f ^ bt)).bit_count()
                        total += (c + limb_actions) or 1
                else:
                    total += dests.bit_count() * (limb_actions or 1)
            if not pc:
                continue
            x = d & enemy
            while x:
                bt = x & -x
                x ^= bt
                t = bt.bit_length() - 1
                ep = pins[t]
                if ep > pc:
                    continue
                if ep < pc:
                    if mover_wins or last_enemy:
                        total += 1
                        continue
                    c = ((dil_f | nbm[t]) & empty_f).bit_count() if can_create else 0
                    total += (c + limb_actions) or 1
                else:
                    if either_wins or last_enemy or not own_f:
                        total += 1
                        continue
                    c = (dil_f & (empty_f | bt)).bit_count()
                    u6 = under6 - (lg + pc < MAX_LIMBS)
                    k = (nl - lg < MAX_LEGS) + (np_ - pc < MAX_PINCERS)
                    total += (c + u6 * k) or 1
        return total

    def perft(self, depth: int) -> int:
        """The number of legal turn sequences of length ``depth`` (repetition ignored).

        ValueError for a depth over :data:`MAX_PERFT_DEPTH` (the count grows some
        fifty times a turn: a much deeper one would not end in a lifetime).

        >>> [Position.standard().perft(d) for d in range(4)]
        [1, 8, 64, 976]
        >>> Position.standard().perft(99)
        Traceback (most recent call last):
        ...
        ValueError: the perft depth is at most 8, not 99
        """
        if isinstance(depth, bool) or not isinstance(depth, int):
            raise TypeError(f"the perft depth is a whole number, not {shown_number(depth)}")
        if depth > MAX_PERFT_DEPTH:
            raise ValueError(f"the perft depth is at most {MAX_PERFT_DEPTH}, not {depth}")
        return self._perft(depth)

    def _perft(self, depth: int) -> int:
        if depth <= 0:
            return 1
        if self._state_outcome() is not None:
            return 0
        if depth == 1:
            return self._count_raw()
        total = 0
        for raw in self._raw_turns():
            self._push_raw(raw)
            total += self._perft(depth - 1)
            self._pop_raw()
        return total

    # -- checking a turn ------------------------------------------------------

    def _check(self, turn: Turn, text: str, *, raise_errors: bool) -> RawTurn | None:
        """The raw form of ``turn`` if legal; else raise IllegalTurnError or return None."""
        reason, raw = self._reason(turn)
        if reason is None:
            return raw
        if raise_errors:
            raise IllegalTurnError(text, reason, self.to_string())
        return None

    def _reason(self, turn: Turn) -> tuple[str | None, RawTurn | None]:
        outcome = self.outcome()
        if outcome is not None:
            return (
                f"the game is over ({outcome.result()} by {outcome.termination.value})",
                None,
            )
        s = self._side
        me, them = _TITLES[s], _TITLES[s ^ 1]
        index = self.board.index
        occ = self._occ
        own = occ[s]
        enemy = occ[s ^ 1]
        empty = self.board.mask & ~(own | enemy)
        legs = self._legs
        pins = self._pins
        f = t = -1
        attack = False
        if turn.move is not None:
            fn, tn, attack = turn.move
            for name in (fn, tn):
                if name not in index:
                    return f"{name} is not on the board", None
            f, t = index[fn], index[tn]
            if not own >> f & 1:
                if enemy >> f & 1:
                    return f"{fn} holds a {them.lower()} adaptoid; {me} is to move", None
                return f"{fn} is empty", None
            if not legs[f]:
                return f"{fn} has no legs", None
            if own >> t & 1:
                return f"{tn} holds a {me.lower()} adaptoid", None
            target_is_enemy = bool(enemy >> t & 1)
            if target_is_enemy and not attack:
                return f"{tn} holds a {them.lower()} adaptoid: an attack is written {fn}x{tn}", None
            if attack and not target_is_enemy:
                return f"{tn} is empty: a move there is written {fn}-{tn}", None
            dests, enemies, _attackable = self._targets(f, empty, enemy)
            if attack:
                if not pins[f]:
                    return f"{fn} has no pincers", None
                if pins[t] > pins[f]:
                    return f"{tn} has more pincers than the attacker", None
                reachable = enemies >> t & 1
            else:
                reachable = dests >> t & 1
            if not reachable:
                steps = "step" if legs[f] == 1 else "steps"
                return (
                    f"{fn} cannot reach {tn} in {legs[f]} {steps} through empty cells",
                    None,
                )
        over, own2, empty2, under6, cc, cl, cp = self._after_move(f, t)
        if over:
            if turn.action is not None:
                return "the move ends the game: no action may follow", None
            return None, (f, t, attack, -1, 0)
        if turn.action is None:
            n = (self.board.dilate(own2) & empty2).bit_count() if cc else 0
            n += len(under6) * (cl + cp)
            if n:
                plural = "action is" if n == 1 else "actions are"
                if turn.move is None:
                    return (
                        f"a pass is legal only when no action exists: {n} {plural} available",
                        None,
                    )
                return f"the action is mandatory: {n} {plural} available", None
            return None, (f, t, attack, -1, 0)
        cn, kind = turn.action
        if cn not in index:
            return f"{cn} is not on the board", None
        c = index[cn]
        if kind == "create":
            if not cc:
                return f"{me} already has {MAX_ADAPTOIDS} adaptoids on the board", None
            if not empty2 >> c & 1:
                return f"{cn} is not empty", None
            if not self.board.neighbour_masks[c] & own2:
                return f"{cn} does not touch a {me.lower()} adaptoid", None
            return None, (f, t, attack, c, 1)
        if not own2 >> c & 1:
            return f"{cn} holds no {me.lower()} adaptoid", None
        if c not in under6:
            return f"{cn} already has {MAX_LIMBS} limbs", None
        if kind == "leg":
            if not cl:
                return f"{me} already has {MAX_LEGS} legs on the board", None
            return None, (f, t, attack, c, 2)
        if not cp:
            return f"{me} already has {MAX_PINCERS} pincers on the board", None
        return None, (f, t, attack, c, 3)

    # -- random play ----------------------------------------------------------

    def random_turn(self, rng: random.Random | None = None) -> Turn:
        """A legal turn chosen at random, cheaply (not uniformly over all turns).

        A move option is chosen uniformly (including "no move"), then an
        action uniformly among those available after it. Raises ValueError
        when the game is over.

        >>> pos = Position.standard()
        >>> pos.random_turn(random.Random(1)) in pos.legal_turns
        True
        """
        if self.outcome() is not None:
            raise ValueError(f"the game is over in {self.to_string()!r}")
        return self._raw_to_turn(self._random_raw(rng or random.Random()))

    def _random_raw(self, rng: random.Random) -> RawTurn:
        s = self._side
        own = self._occ[s]
        enemy = self._occ[s ^ 1]
        empty = self.board.mask & ~(own | enemy)
        legs = self._legs
        targets = self._targets
        options: list[tuple[int, int, int]] = []
        n = 1
        m = own
        while m:
            low = m & -m
            m ^= low
            f = low.bit_length() - 1
            if legs[f]:
                dests, _enemies, attackable = targets(f, empty, enemy)
                c = dests.bit_count() + attackable.bit_count()
                if c:
                    options.append((f, dests, attackable))
                    n += c
        k = rng.randrange(n)
        f = t = -1
        attack = False
        if k:
            k -= 1
            for f, dests, attackable in options:
                nd = dests.bit_count()
                if k < nd:
                    t = _nth_bit(dests, k)
                    break
                k -= nd
                na = attackable.bit_count()
                if k < na:
                    t = _nth_bit(attackable, k)
                    attack = True
                    break
                k -= na
        over, own2, empty2, under6, cc, cl, cp = self._after_move(f, t)
        if over:
            return f, t, attack, -1, 0
        if cc:
            st = self.board.stride
            st1 = st + 1
            creates = (
                own2 << 1 | own2 >> 1 | own2 << st | own2 >> st | own2 << st1 | own2 >> st1
            ) & empty2
        else:
            creates = 0
        nc = creates.bit_count()
        nu = len(under6)
        total = nc + nu * (cl + cp)
        if not total:
            return f, t, attack, -1, 0
        k = rng.randrange(total)
        if k < nc:
            return f, t, attack, _nth_bit(creates, k), 1
        k -= nc
        if cl:
            if k < nu:
                return f, t, attack, under6[k], 2
            k -= nu
        return f, t, attack, under6[k], 3


def _repetition_key(
    white: int,
    black: int,
    legs: list[int],
    pins: list[int],
    undone: dict[int, tuple[int, int]],
    side: int,
    white_score: int,
    black_score: int,
) -> bytes:
    """The position as the repetition rule compares it (pieces, side to move and
    scores), exactly and compactly: three bytes per adaptoid in bit order (the
    bit index in two, then ``colour << 6 | legs << 3 | pincers``), then the side
    and the scores. ``undone`` gives the limbs of the cells whose ``legs`` and
    ``pins`` have changed since.

    >>> pos = Position.from_string("A1W11,A3B02 b 3-1 A1-3")
    >>> key = _repetition_key(*pos._occ, pos._legs, pos._pins, {}, pos._side, *pos._score)
    >>> key[:3].hex(), key[3:6].hex(), key[6:].hex()  # A1 (bit 0) W11, A3 (bit 2) B02, b 3-1
    ('000009', '020042', '010300000001000000')
    """
    out = bytearray()
    m = white | black
    while m:
        low = m & -m
        m ^= low
        i = low.bit_length() - 1
        old = undone.get(i)
        lg, pc = (legs[i], pins[i]) if old is None else old
        out += bytes((i & 255, i >> 8, (64 if black & low else 0) | lg << 3 | pc))
    out += _SIDE_AND_SCORES.pack(side, white_score, black_score)
    return bytes(out)


def _nth_bit(m: int, k: int) -> int:
    """The index of the ``k``-th (0-based, from the lowest) set bit of ``m``."""
    for _ in range(k):
        m &= m - 1
    return (m & -m).bit_length() - 1
