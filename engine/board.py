"""Boards: sets of cells of the axial hex lattice (RULES.md §1).

Cells are named by a column letter ``A``–``Z`` and a row number ``1``–``99``.
Internally a cell is a bit of a Python int: cell (column ``c``, row ``r``) is bit
``c * stride + r`` where ``stride`` leaves one unused row between columns, so
the six neighbour directions are plain shifts (``±1``, ``±stride``,
``±(stride + 1)``) masked with the board.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from engine._text import ASCII_SPACE, ascii_upper, decimal, non_ascii, shown
from engine.errors import InvalidBoardError

__all__ = ["STANDARD_BOARD", "STANDARD_BOARD_TEXT", "Board"]

STANDARD_BOARD_TEXT = "A1-4,B1-5,C1-6,D1-7,E2-7,F3-7,G4-7"

_COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_RANGE_RE = re.compile(r"([A-Za-z])([0-9]+)(?:-([0-9]+))?")
_CELL_RE = re.compile(r"([A-Za-z])([1-9][0-9]?)")


def _cell_name(col: int, row: int) -> str:
    return f"{_COLUMNS[col]}{row + 1}"


def parse_cell(name: str) -> tuple[int, int] | None:
    """Return zero-based ``(column, row)`` of a syntactically valid cell name, else None.

    >>> parse_cell("d5"), parse_cell("Z99"), parse_cell("D0"), parse_cell("D100")
    ((3, 4), (25, 98), None, None)
    """
    m = _CELL_RE.fullmatch(name)
    if m is None:
        return None
    return ord(m.group(1).upper()) - 65, int(m.group(2)) - 1


class Board:
    """A connected set of at least two cells of the axial lattice.

    >>> board = Board.parse("a1-2,B1-3")
    >>> board
    Board.parse('A1-2,B1-3')
    >>> board.cells
    ('A1', 'A2', 'B1', 'B2', 'B3')
    >>> board.neighbours("A1")
    ('A2', 'B1', 'B2')
    >>> STANDARD_BOARD.neighbours("D5")
    ('C4', 'C5', 'D4', 'D6', 'E5', 'E6')
    >>> len(STANDARD_BOARD), STANDARD_BOARD.is_standard
    (37, True)
    """

    __slots__ = (
        "_cells",
        "_coords",
        "_text",
        "index",
        "mask",
        "names",
        "neighbour_masks",
        "stride",
    )

    #: bit index of each cell name
    index: dict[str, int]
    #: cell name of each bit index
    names: dict[int, str]
    #: neighbour mask of each bit index (a list indexed by bit; 0 off the board)
    neighbour_masks: list[int]

    def __init__(self, cells: Iterable[tuple[int, int]]) -> None:
        """Build a board from zero-based ``(column, row)`` pairs (validated)."""
        coords = sorted(set(cells))
        if len(coords) < 2:
            raise InvalidBoardError(f"a board needs at least 2 cells, got {len(coords)}")
        for c, r in coords:
            if not (0 <= c < 26 and 0 <= r < 99):
                raise InvalidBoardError(f"cell ({c}, {r}) is outside columns A-Z and rows 1-99")
        max_row = max(r for _, r in coords)
        self.stride = stride = max_row + 2
        self._coords = {_cell_name(c, r): (c, r) for c, r in coords}
        self._cells = tuple(self._coords)
        self.index = {name: c * stride + r for name, (c, r) in self._coords.items()}
        self.names = {i: name for name, i in self.index.items()}
        mask = 0
        for i in self.index.values():
            mask |= 1 << i
        self.mask = mask
        size = max(self.index.values()) + 1
        nbm = [0] * size
        for i in self.index.values():
            b = 1 << i
            nbm[i] = (
                b << 1 | b >> 1 | b << stride | b >> stride | b << (stride + 1) | b >> (stride + 1)
            ) & mask
        self.neighbour_masks = nbm
        # connectivity: flood fill from the first cell
        seen = 1 << self.index[self._cells[0]]
        while True:
            grown = seen | self.dilate(seen)
            if grown == seen:
                break
            seen = grown
        if seen != mask:
            missing = [self.names[i] for i in self.bits(mask & ~seen)]
            raise InvalidBoardError(
                f"the board is not connected: {', '.join(missing[:5])}"
                f"{' ...' if len(missing) > 5 else ''} cannot be reached from {self._cells[0]}"
            )
        self._text = self._ranges()

    # -- construction ---------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> Board:
        """Parse column ranges such as ``A1-4,B1-5`` (a single cell ``A1`` is allowed).

        Raises :class:`InvalidBoardError` (a ValueError) with the reason.

        >>> Board.parse("A1-4,B1-5,C1-6,D1-7,E2-7,F3-7,G4-7") == STANDARD_BOARD
        True
        >>> Board.parse("A1,C1")
        Traceback (most recent call last):
        ...
        engine.errors.InvalidBoardError: invalid board 'A1,C1': the board is not connected: C1 cannot be reached from A1
        """
        if not isinstance(text, str):
            raise InvalidBoardError(f"a board must be given as text, not {type(text).__name__}")
        if cls is Board and len(text) <= _CACHED_LENGTH:
            return _parse_board_cached(text)
        return cls._parse_uncached(text)

    @classmethod
    def _parse_uncached(cls, text: str) -> Board:
        try:
            return cls(cls._parse_cells(text))
        except InvalidBoardError as exc:
            raise InvalidBoardError(f"invalid board {shown(text, 200)}: {exc}") from None

    @staticmethod
    def _parse_cells(text: str) -> list[tuple[int, int]]:
        if not text.strip(ASCII_SPACE):
            raise InvalidBoardError("empty board description")
        cells: list[tuple[int, int]] = []
        seen: set[tuple[int, int]] = set()
        for item in text.split(","):
            part = item.strip(ASCII_SPACE)
            m = _RANGE_RE.fullmatch(part)
            if m is None:
                head = part[:1]
                if head and not head.isascii() and not head.isalpha():
                    pass  # a non-ASCII space or sign: said below
                elif head and not ("A" <= head <= "Z" or "a" <= head <= "z"):
                    raise InvalidBoardError(f"{shown(part)}: a column is a letter A-Z")
                bad = non_ascii(part)
                if bad is not None:
                    raise InvalidBoardError(f"{shown(part)}: {bad}: a board is written in ASCII")
                raise InvalidBoardError(
                    f"{shown(part)} is not a column range such as 'A1-4' or a cell such as 'A1'"
                )
            col = ord(m.group(1).upper()) - 65
            rows = []
            for digits in (m.group(2), m.group(3) or m.group(2)):
                row = decimal(digits, 4)  # never int() of thousands of digits
                if row is None:
                    raise InvalidBoardError(
                        f"{shown(part)}: a row of {len(digits.lstrip('0'))} digits is outside 1-99"
                    )
                if not 1 <= row <= 99:
                    raise InvalidBoardError(f"{shown(part)}: row {row} is outside 1-99")
                rows.append(row)
            first, last = rows
            if last < first:
                raise InvalidBoardError(f"{part!r}: the range runs backwards")
            for r in range(first - 1, last):
                if (col, r) in seen:
                    raise InvalidBoardError(f"cell {_cell_name(col, r)} is listed twice")
                seen.add((col, r))
                cells.append((col, r))
        return cells

    def _ranges(self) -> str:
        parts: list[str] = []
        by_col: dict[int, list[int]] = {}
        for c, r in self._coords.values():
            by_col.setdefault(c, []).append(r)
        for c, rows in sorted(by_col.items()):
            rows.sort()
            start = prev = rows[0]
            for r in rows[1:] + [-2]:
                if r != prev + 1:
                    letter = _COLUMNS[c]
                    parts.append(
                        f"{letter}{start + 1}"
                        if start == prev
                        else f"{letter}{start + 1}-{prev + 1}"
                    )
                    start = r
                prev = r
        return ",".join(parts)

    # -- queries --------------------------------------------------------------

    @property
    def cells(self) -> tuple[str, ...]:
        """Cell names in column-then-row order."""
        return self._cells

    @property
    def is_standard(self) -> bool:
        """True for the 37-cell hexagon of the rulebook."""
        return self._text == STANDARD_BOARD_TEXT

    def coordinates(self, name: str) -> tuple[int, int]:
        """Zero-based ``(column, row)`` of a cell (case-insensitive); KeyError if absent.

        >>> STANDARD_BOARD.coordinates("d5")
        (3, 4)
        """
        return self._coords[ascii_upper(name)]

    def neighbours(self, name: str) -> tuple[str, ...]:
        """Names of the neighbouring cells on this board, in column-then-row order."""
        i = self.index[ascii_upper(name)]
        return tuple(self.names[j] for j in self.bits(self.neighbour_masks[i]))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and ascii_upper(name) in self._coords

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._cells)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Board.parse({self._text!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._text == other._text

    def __hash__(self) -> int:
        return hash(self._text)

    # -- bit helpers used by the engine ---------------------------------------

    def dilate(self, m: int) -> int:
        """Cells of the board that neighbour a cell of mask ``m``."""
        s = self.stride
        t = s + 1
        return (m << 1 | m >> 1 | m << s | m >> s | m << t | m >> t) & self.mask

    @staticmethod
    def bits(m: int) -> list[int]:
        """The bit indices set in ``m``, ascending (column-then-row order)."""
        out = []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out


#: longer board texts are parsed each time: the cache would keep them
_CACHED_LENGTH = 4096


@functools.lru_cache(maxsize=256)
def _parse_board_cached(text: str) -> Board:
    # Boards are immutable, so servers parsing many position strings on the
    # same custom board build it once.
    return Board._parse_uncached(text)


STANDARD_BOARD = Board.parse(STANDARD_BOARD_TEXT)
