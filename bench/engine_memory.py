"""Engine memory benchmark: peak memory of two large inputs, each in a fresh process.

    python bench/engine_memory.py [record|record-line|long-game ...] [--mb 50] [--turns 20000]

* ``record``: read one game record of ``--mb`` megabytes (a single game: a
  random game from the standard start, its turns written again and again, so
  the replay stops at the end of the game and the rest is only parsed) from
  a file with :func:`engine.read_games`. ``record-line``: the same with the
  whole movetext on one line (the reader holds a line at a time: this one).
* ``long-game``: ``--turns`` quiet turns (moves without an action: both sides
  have used up their supply) on the largest custom board, columns A-Z and rows
  1-99, with the repetition rule in force: two walkers go round loops of 98
  and 95 cells, so no position occurs a third time before 18,620 turns of each side.

Each case runs in a child process and prints the child's peak resident set
size (``VmHWM``, else ``resource.getrusage``), and how much of it came after the imports and
the set-up. Not a test: it only measures (the tests never assert memory).
"""

from __future__ import annotations

import argparse
import pathlib
import random
import resource
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)

from engine import GameRecord, Position, Turn, read_games, write_game

BIG_BOARD = ",".join(f"{c}1-99" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _peak_mb() -> float:
    """Peak resident set size of this process, in MB.

    Linux's ``VmHWM`` is this program's own high-water mark; ``ru_maxrss`` would
    also count what the parent process had when it started this one.
    """
    try:
        for line in pathlib.Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


# -- the record case ------------------------------------------------------------


def make_record(path: pathlib.Path, megabytes: float, columns: int = 80) -> int:
    """Write one game of about ``megabytes`` MB to ``path``; return its number of turns."""
    rng = random.Random(2026)
    pos = Position.standard()
    while pos.outcome() is None:
        pos.push(pos.random_turn(rng))
    game = [str(t) for t in pos.turn_stack]
    sample = write_game(GameRecord(turns=game * 100, result=pos.result()))
    copies = max(1, round(megabytes * 1_000_000 * 100 / len(sample.encode())))
    for _ in range(2):  # the turn numbers grow longer: correct the estimate once
        turns = game * copies
        with path.open("w", encoding="utf-8") as handle:
            handle.write(write_game(GameRecord(turns=turns, result=pos.result()), columns=columns))
        copies = max(1, round(copies * megabytes * 1_000_000 / path.stat().st_size))
    return len(turns)


def child_record(path: str) -> None:
    began = time.perf_counter()
    base = _peak_mb()
    with open(path, encoding="utf-8", newline="") as handle:
        [record] = read_games(handle)
        turns = len(record.turns)
        first = str(record.errors[0]) if record.errors else "no errors"
    seconds = time.perf_counter() - began
    peak = _peak_mb()
    print(
        f"record: {pathlib.Path(path).stat().st_size / 1e6:.1f} MB, {turns:,} turns read in "
        f"{seconds:.1f} s; peak RSS {peak:.0f} MB ({peak - base:.0f} MB above the start); "
        f"{first[:70]}"
    )


# -- the long-game case ---------------------------------------------------------


def _loop(c0: int, c1: int, r0: int, r1: int, cut: bool) -> list[tuple[int, int]]:
    """Cells round the rectangle of columns c0..c1 and rows r0..r1 (0-based), a
    closed walk of neighbouring cells; ``cut`` leaves out the corner (c1, r0),
    whose two loop neighbours (c1 - 1, r0) and (c1, r0 + 1) touch: one cell
    fewer, so the length can be odd."""
    cells = [(c, r0) for c in range(c0, c1)]
    cells += [(c1, r) for r in range(r0, r1)]
    cells += [(c, r1) for c in range(c1, c0, -1)]
    cells += [(c0, r) for r in range(r1, r0, -1)]
    if cut:
        cells.remove((c1, r0))
    return cells


def _name(cell: tuple[int, int]) -> str:
    return f"{chr(65 + cell[0])}{cell[1] + 1}"


def long_game_position() -> tuple[Position, list[list[tuple[int, int]]]]:
    """The start position of the long game and the walkers' loops (White's, Black's)."""
    white_loop = _loop(0, 25, 0, 24, cut=False)  # 98 cells
    black_loop = _loop(0, 25, 40, 63, cut=True)  # 95 cells
    for loop in (white_loop, black_loop):
        for a, b in zip(loop, loop[1:] + loop[:1], strict=True):
            d = (b[0] - a[0], b[1] - a[1])
            assert d in {(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)}, (a, b)
    pieces = [(white_loop[0], "W"), (black_loop[0], "B")]
    # eleven more of each colour, far away: 12 adaptoids, 12 legs, 12 pincers each
    for k in range(11):
        pieces.append(((2 * k + 1, 80), "W"))
        pieces.append(((2 * k + 1, 90), "B"))
    pieces.sort()
    text = ",".join(f"{_name(cell)}{colour}11" for cell, colour in pieces)
    pos = Position.from_string(f"{text} w 0-0 {BIG_BOARD}")
    return pos, [white_loop, black_loop]


def child_long_game(turns: int) -> None:
    pos, loops = long_game_position()
    base = _peak_mb()
    began = time.perf_counter()
    where = [0, 0]
    for ply in range(turns):
        side = ply % 2
        loop = loops[side]
        a = loop[where[side] % len(loop)]
        b = loop[(where[side] + 1) % len(loop)]
        where[side] += 1
        turn = Turn(move=(_name(a), _name(b), False))
        if ply < 400:
            pos.push_text(str(turn))  # checked: the walk is legal
        else:
            pos.push(turn)  # the same walk, unchecked (checking costs O(ply) a turn)
    outcome = pos.outcome()
    seconds = time.perf_counter() - began
    peak = _peak_mb()
    print(
        f"long-game: {pos.ply:,} quiet turns on {BIG_BOARD[:9]}...Z1-99 in {seconds:.1f} s, "
        f"outcome {outcome}; peak RSS {peak:.0f} MB ({peak - base:.0f} MB above the start)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cases", nargs="*", default=["record", "long-game"])
    parser.add_argument("--mb", type=float, default=50.0, help="size of the record (MB)")
    parser.add_argument("--turns", type=int, default=20_000, help="turns of the long game")
    parser.add_argument("--child", nargs=2, metavar=("CASE", "ARG"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        case, arg = args.child
        if case in ("record", "record-line"):
            child_record(arg)
        else:
            child_long_game(int(arg))
        return
    with tempfile.TemporaryDirectory() as tmp:
        for case in args.cases:
            if case in ("record", "record-line"):
                path = pathlib.Path(tmp) / "big.agn"
                make_record(path, args.mb, 80 if case == "record" else 10**12)
                arg = str(path)
            elif case == "long-game":
                arg = str(args.turns)
            else:
                parser.error(f"unknown case {case!r}")
            subprocess.run([sys.executable, __file__, "--child", case, arg], check=True, cwd=ROOT)


if __name__ == "__main__":
    main()
