"""Record checking benchmark: is checking a game record linear in its length?

    python bench/record_check.py [--turns 5000 10000 20000] [--repeat 3]

Checks (:func:`engine.read_games`: parse, check and play every turn, then the
result) one game of each length: the long walk of
:mod:`engine.tests.long_walk`, quiet turns only on the largest board, where
the repetition rule must compare each position with the whole run before it.
Prints the best time of ``--repeat`` runs per length, per turn, and the ratio
of the longest to the shortest: linear work gives the ratio of the lengths
(4 for 20,000 / 5,000 turns). Not a test: it only measures.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)

from engine import read_games
from engine.tests.long_walk import long_walk_record


def check_seconds(text: str, turns: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        [game] = read_games(text)
        best = min(best, time.perf_counter() - began)
        assert not game.errors and len(game.turns) == turns, game.errors[:1]
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[5000, 10000, 20000])
    parser.add_argument("--repeat", type=int, default=3, help="runs per length (the best counts)")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]} on {sys.platform}")
    times = []
    for turns in args.turns:
        text = long_walk_record(turns)
        seconds = check_seconds(text, turns, args.repeat)
        times.append(seconds)
        print(
            f"{turns:>6} turns ({len(text) / 1e3:.0f} kB): {seconds:.3f} s, "
            f"{seconds / turns * 1e6:.1f} us per turn"
        )
    first, last = args.turns[0], args.turns[-1]
    print(
        f"ratio {last}/{first} turns: {times[-1] / times[0]:.2f} "
        f"(linear: {last / first:.2f}; quadratic: {(last / first) ** 2:.2f})"
    )


if __name__ == "__main__":
    main()
