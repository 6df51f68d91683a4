"""Engine memory benchmark: peak memory of two large inputs, each in a fresh process.

    python bench/engine_memory.py [record|record-line|long-game ...] [--mb 50] [--turns 20000]

* ``record``: read one game record of ``--mb`` megabytes (a single game: a
  random game from the standard start, its turns written again and again, so
  the replay stops at the end of the game and the rest is only parsed) from
  a file with :func:`engine.read_games`. ``record-line``: the same with the
  whole movetext on one line (the reader holds a line at a time: this one).
* ``long-game``: ``--turns`` quiet turns, each checked (moves without an action:
  both sides have used up their supply) on the largest custom board, columns A-Z
  and rows 1-99, with the repetition rule in force: the long walk of
  :mod:`engine.tests.long_walk`, where no position occurs a third time before
  18,620 turns of each side.

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

from engine import GameRecord, Position, read_games, write_game
from engine.tests.long_walk import BIG_BOARD, long_walk


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


def child_long_game(turns: int) -> None:
    start, texts = long_walk(turns)
    pos = Position(start)
    base = _peak_mb()
    began = time.perf_counter()
    for text in texts:
        pos.push_text(text)  # checked: the same work a turn at any length of the game
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
