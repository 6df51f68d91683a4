"""Speed of the computer players (not a test).

Run from the repository root:  python bench/players.py [--time 1.0] [--positions 8]

* raw speeds: turn generation, push/pop and the evaluation, per second;
* for each player, on positions taken from greedy-vs-greedy and
  random-vs-random games at turns 10, 20, 30 and 40 (seeded, so the same
  every run): the mean and the
  longest decision time against the budget, and for the searching players
  the depth completed, nodes searched and nodes per second.

Targets: every decision within the budget + 10%; ``search`` completes depth
2 at 1 s per turn on these positions.
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="seconds per decision")
    parser.add_argument("--positions", type=int, default=8, help="number of positions")
    args = parser.parse_args()
    positions = sample_positions(args.positions)
    raw_speeds(positions)
    ok = True
    for name in PLAYER_NAMES:
        ok &= bench_player(name, positions, args.time)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
