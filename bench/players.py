"""Speed of the computer players (not a test).

Run from the repository root:  python bench/players.py [--time 1.0] [--positions 8]
                          or:  python bench/players.py --fit [--games 100] [--nodes 3000]

* raw speeds: turn generation, push/pop and the evaluation, per second;
* for each player, on positions taken from greedy-vs-greedy and
  random-vs-random games at turns 10, 20, 30 and 40 (seeded, so the same
  every run): the mean and the
  longest decision time against the budget, and for the searching players
  the depth completed, nodes searched and nodes per second.

Targets: every decision within the budget + 10%; ``search`` completes depth
2 at 1 s per turn on these positions.

``--fit`` fits the scale of :func:`engine.analysis.expected_score`: it plays
seeded games of the search against itself (a node budget per turn, 4 random
turns first), records the search value of every position from White's side
and the game's result, and prints the logistic scale of maximum likelihood
with the log loss against that of the current :data:`EXPECTED_SCALE`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Position
from engine.players import PLAYER_NAMES, evaluate, get_player


def sample_positions(count: int) -> list[Position]:
    """Positions at turns 10, 20, 30, 40 of seeded games, alternately greedy
    against greedy (tactical, few adaptoids) and random against random (crowded
    boards, a few hundred turns each)."""
    out: list[Position] = []
    game = 0
    while len(out) < count:
        game += 1
        pos = Position.standard()
        name = "greedy" if game % 2 else "random"
        players = (get_player(name, seed=game), get_player(name, seed=game + 100))
        pos.push(get_player("random", seed=game).choose(pos, seconds=1))
        for turn_number in range(1, 41):
            if pos.outcome() is not None:
                break
            pos.push(players[pos.side_to_move.index].choose(pos, seconds=1))
            if turn_number % 10 == 0 and pos.outcome() is None:
                out.append(pos.copy())
    return out[:count]


def raw_speeds(positions: list[Position]) -> None:
    began = time.perf_counter()
    turns = 0
    for pos in positions:
        for _ in range(20):
            turns += len(pos._raw_turns())
    gen = 20 * len(positions) / (time.perf_counter() - began)
    began = time.perf_counter()
    pushes = 0
    evals = 0
    for pos in positions:
        for raw in pos._raw_turns():
            pos._push_raw(raw)
            if pos._state_outcome() is None:
                evaluate(pos)
                evals += 1
            pos._pop_raw()
            pushes += 1
    each = time.perf_counter() - began
    print(
        f"turn generation: {gen:,.0f} positions/s ({turns / (20 * len(positions)):.0f} turns each); "
        f"push + evaluate + pop: {pushes / each:,.0f}/s ({evals} evaluations)"
    )


def bench_player(name: str, positions: list[Position], seconds: float) -> bool:
    times: list[float] = []
    depths: list[int] = []
    nodes = 0
    for n, pos in enumerate(positions):
        player = get_player(name, seed=n)
        began = time.perf_counter()
        turn = player.choose(pos, seconds=seconds)
        times.append(time.perf_counter() - began)
        assert turn in pos.legal_turns, (name, str(pos), str(turn))
        if "depth" in player.info:
            depths.append(int(player.info["depth"]))
            nodes += int(player.info["nodes"])
    slowest = max(times)
    ok = slowest <= 1.1 * seconds
    line = (
        f"{name:9} mean {statistics.mean(times):.3f} s, slowest {slowest:.3f} s "
        f"(budget {seconds:g} s{'' if ok else ', OVER'})"
    )
    if depths:
        line += (
            f"; depth {min(depths)}-{max(depths)} (mean {statistics.mean(depths):.1f}), "
            f"{nodes / sum(times):,.0f} nodes/s"
        )
    print(line, flush=True)
    return ok


def fit_scale(games: int, nodes: int) -> None:
    """Play the games, then fit ``P(White wins) = 1 / (1 + exp(-v / scale))``."""
    import math
    import random

    from engine.analysis import EXPECTED_SCALE
    from engine.players.search import SearchPlayer

    samples: list[tuple[int, float]] = []
    for game in range(games):
        rng = random.Random(game)
        pos = Position.standard()
        for _ in range(4):
            pos.push(pos.random_turn(rng))
        players = [SearchPlayer("search", seed=2 * game + c, max_nodes=nodes) for c in (0, 1)]
        values: list[int] = []
        while pos.outcome() is None and pos.ply < 300:
            player = players[pos.side_to_move.index]
            raw = player.search(pos, math.inf)
            value = int(player.info["value"])
            if abs(value) < 999_000:
                values.append(value if pos.side_to_move.index == 0 else -value)
            pos._push_raw(raw)
        outcome = pos.outcome()
        result = 0.5 if outcome is None or outcome.winner is None else 1.0 - outcome.winner.index
        samples.extend((v, result) for v in values)
        print(f"game {game + 1}: {result}, {len(values)} positions", file=sys.stderr)

    def loss(scale: float) -> float:
        total = 0.0
        for v, r in samples:
            p = 1 / (1 + math.exp(max(-50.0, min(50.0, -v / scale))))
            p = min(max(p, 1e-9), 1 - 1e-9)
            total -= r * math.log(p) + (1 - r) * math.log(1 - p)
        return total / len(samples)

    low, high = 50.0, 20_000.0
    for _ in range(60):  # golden-section search on a unimodal loss
        a = high - (high - low) / 1.618
        b = low + (high - low) / 1.618
        if loss(a) < loss(b):
            high = b
        else:
            low = a
    best = (low + high) / 2
    print(
        f"{games} games, {len(samples)} positions, {nodes} nodes per turn: "
        f"scale {best:.0f} (log loss {loss(best):.4f}; "
        f"EXPECTED_SCALE {EXPECTED_SCALE}: {loss(EXPECTED_SCALE):.4f}; constant 1/2: {math.log(2):.4f})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="seconds per decision")
    parser.add_argument("--positions", type=int, default=8, help="number of positions")
    parser.add_argument("--fit", action="store_true", help="fit the expected-score scale")
    parser.add_argument("--games", type=int, default=100, help="games for --fit")
    parser.add_argument("--nodes", type=int, default=3000, help="nodes per turn for --fit")
    args = parser.parse_args()
    if args.fit:
        fit_scale(args.games, args.nodes)
        return 0
    positions = sample_positions(args.positions)
    raw_speeds(positions)
    ok = True
    for name in PLAYER_NAMES:
        ok &= bench_player(name, positions, args.time)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
