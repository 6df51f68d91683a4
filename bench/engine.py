"""Engine benchmark: prints perft, self-play and turn-checking figures.

    python bench/engine.py [--games 500] [--naive]

Not a test: it only measures. Targets (RULES.md engine issue #2):
perft(start, 5) = 571347 in <= 0.3 s; random self-play >= 300 games/s on one
core; parse + check + apply one submitted turn < 100 us median.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

# This file is called engine.py: make sure "import engine" finds the package.
ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)

from engine import Position


def best_of(n: int, fn) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    best = float("inf")
    value = None
    for _ in range(n):
        began = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - began)
    return best, value


def bench_perft() -> None:
    for depth, expected in ((4, 14880), (5, 571347)):
        seconds, n = best_of(3, lambda d=depth: Position.standard().perft(d))
        status = "ok" if n == expected else f"WRONG (expected {expected})"
        print(
            f"perft(start, {depth}) = {n} {status}: {seconds:.3f} s ({n / seconds:,.0f} leaves/s)"
        )


def bench_selfplay(games: int) -> list[list[str]]:
    rng = random.Random(12345)
    finished: list[Position] = []
    plies = 0
    began = time.perf_counter()
    for _ in range(games):
        pos = Position.standard()
        while pos.outcome() is None:
            pos._push_raw(pos._random_raw(rng))
        plies += pos.ply
        finished.append(pos)
    seconds = time.perf_counter() - began
    print(
        f"selfplay: {games} random games in {seconds:.3f} s = {games / seconds:,.0f} games/s "
        f"({plies / games:.1f} turns/game, {plies / seconds:,.0f} turns/s)"
    )
    return [[str(t) for t in pos.turn_stack] for pos in finished[:200]]


def bench_submitted_turns(games: list[list[str]]) -> None:
    samples: list[float] = []
    clock = time.perf_counter_ns
    for turns in games:
        pos = Position.standard()
        for text in turns:
            began = clock()
            pos.push_text(text)
            samples.append((clock() - began) / 1000)
    samples.sort()
    p95 = samples[int(len(samples) * 0.95)]
    print(
        f"push_text (parse + check + apply): median {statistics.median(samples):.1f} us, "
        f"p95 {p95:.1f} us over {len(samples)} turns"
    )
    began = clock()
    n = 0
    for turns in games:
        pos = Position.standard()
        for text in turns:
            pos.legal_turns.count()
            pos.outcome()
            pos.push(pos.parse_turn(text))
            n += 1
    print(
        "a server's turn (legal_turns.count(), outcome(), parse_turn, push): "
        f"{(clock() - began) / 1000 / n:.1f} us mean"
    )


def bench_naive() -> None:
    from engine.tests import naive

    state = naive.parse("D2W00,D6B00 w 0-0")
    began = time.perf_counter()
    n = naive.perft(state, 5)
    print(f"naive reference perft(start, 5) = {n}: {time.perf_counter() - began:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--naive", action="store_true", help="also time the naive reference")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]} on {sys.platform}")
    bench_perft()
    games = bench_selfplay(args.games)
    bench_submitted_turns(games)
    if args.naive:
        bench_naive()


if __name__ == "__main__":
    main()
