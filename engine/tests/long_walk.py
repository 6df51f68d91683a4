"""A game of many quiet turns that never repeats a position a third time.

Both sides have used up their supply (twelve adaptoids, legs and pincers
each), so every turn is a move without an action, on the largest board
(columns A-Z, rows 1-99). One white and one black adaptoid walk round loops
of 98 and 95 cells; the others stand far away. No position occurs a third
time before 18,620 turns of each side, so the repetition rule is in force
but never ends the game: the record checker and the repetition rule see
one run of quiet turns as long as the walk (the benchmarks and the tests
of bounded work use it).

>>> start, turns = long_walk(4)
>>> start.split()[1:3], turns
(['w', '0-0'], ['A1-B1', 'A41-B41', 'B1-C1', 'B41-C41'])
"""

from __future__ import annotations

from engine.position import Position
from engine.record import GameRecord, write_game

__all__ = ["BIG_BOARD", "long_walk", "long_walk_record", "loops", "start_position"]

BIG_BOARD = ",".join(f"{c}1-99" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")

Cell = tuple[int, int]  # (column, row), zero-based


def _loop(c0: int, c1: int, r0: int, r1: int, cut: bool) -> list[Cell]:
    """Cells round the rectangle of columns c0..c1 and rows r0..r1, a closed walk
    of neighbouring cells; ``cut`` leaves out the corner (c1, r0), whose two loop
    neighbours (c1 - 1, r0) and (c1, r0 + 1) touch: one cell fewer, so the
    length can be odd."""
    cells = [(c, r0) for c in range(c0, c1)]
    cells += [(c1, r) for r in range(r0, r1)]
    cells += [(c, r1) for c in range(c1, c0, -1)]
    cells += [(c0, r) for r in range(r1, r0, -1)]
    if cut:
        cells.remove((c1, r0))
    return cells


def name(cell: Cell) -> str:
    """The cell's name, such as ``A1``."""
    return f"{chr(65 + cell[0])}{cell[1] + 1}"


def loops() -> tuple[list[Cell], list[Cell]]:
    """White's loop (98 cells) and Black's (95 cells)."""
    return _loop(0, 25, 0, 24, cut=False), _loop(0, 25, 40, 63, cut=True)


def start_position() -> Position:
    """The start: the two walkers at the start of their loops, eleven more
    adaptoids of each colour far away, every limb in supply on the board."""
    white_loop, black_loop = loops()
    pieces = [(white_loop[0], "W"), (black_loop[0], "B")]
    for k in range(11):
        pieces.append(((2 * k + 1, 80), "W"))
        pieces.append(((2 * k + 1, 90), "B"))
    pieces.sort()
    text = ",".join(f"{name(cell)}{colour}11" for cell, colour in pieces)
    return Position.from_string(f"{text} w 0-0 {BIG_BOARD}")


def long_walk(turns: int) -> tuple[str, list[str]]:
    """The start position string and ``turns`` turns of the walk, in notation."""
    walks = loops()
    texts = []
    for ply in range(turns):
        loop = walks[ply % 2]
        step = ply // 2
        texts.append(f"{name(loop[step % len(loop)])}-{name(loop[(step + 1) % len(loop)])}")
    return start_position().to_string(), texts


def long_walk_record(turns: int) -> str:
    """The ``.agn`` text of the walk's first ``turns`` turns (result ``*``)."""
    start, texts = long_walk(turns)
    return write_game(GameRecord(start=start, turns=texts, headers={"Event": "long walk"}))
