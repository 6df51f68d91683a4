"""Regenerate ``perft.txt`` with counts from the naive reference (``naive.py``).

    python -m engine.tests.make_perft

Each line: ``<position string> ; <depth>=<count> ...``. The engine must agree
(``test_oracle.py`` checks every line).
"""

from __future__ import annotations

import pathlib
import random

from engine import Position
from engine.tests import naive
from engine.tests.randompos import random_position_string

PATH = pathlib.Path(__file__).with_name("perft.txt")
BUDGET = 200_000  # naive leaf nodes per position


def positions() -> list[str]:
    out = ["D2W00,D6B00 w 0-0"]
    rng = random.Random(2026)
    # midgame positions from random games from the start
    while len(out) < 9:
        pos = Position.standard()
        for _ in range(rng.randint(8, 40)):
            if pos.outcome() is not None:
                break
            pos.push(pos.random_turn(rng))
        if pos.outcome() is None:
            out.append(pos.to_string())
    # random positions, custom boards included
    while len(out) < 16:
        text = random_position_string(rng)
        if Position.from_string(text).outcome() is None:
            out.append(text)
    out.append("B4W21,C1W00,D4B22,E3W31,E5B00,F7B03 w 0-0")
    out.append("B4W21,B5B00,C1W00,C3W00,C5W00,D4B32,D5B00,E3W21,E7B00,F7B22 w 0-0")
    return out


def main() -> None:
    lines = [
        "# Perft counts (legal turn sequences, repetition ignored), from engine/tests/naive.py.",
        "# <position string> ; <depth>=<count> ...   (regenerate: python -m engine.tests.make_perft)",
    ]
    for text in positions():
        state = naive.parse(text)
        counts = []
        depth = 1
        first = 0
        while True:
            n = naive.perft(state, depth)
            assert Position.from_string(text).perft(depth) == n, (text, depth)
            counts.append(f"{depth}={n}")
            first = first or n
            # the next depth costs about n * (branching factor) naive leaves
            if n == 0 or n * max(first, 1) > BUDGET or depth >= 4:
                break
            depth += 1
        lines.append(f"{text} ; {' '.join(counts)}")
        print(lines[-1])
    PATH.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
