"""Timing of the tournament pairing package (not a test).

Run from the repository root:  python bench/pairing.py

* pairing round 5 of a Swiss with 100 and 500 players (FIDE Dutch via
  py4swiss); rounds 1-4 are set up with a fast approximate pairer and random
  results weighted by rating, with a few absences and forfeits;
* standings with six tie-breaks for 1000 players after 9 rounds.

Targets: 100 players < 1 s, 500 players < 10 s, standings 1000 < 1 s.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.pairing import RULES_VERSION, pair_next_round, standings
from tournaments.pairing.simulate import (
    play_random_rounds,
    quick_swiss_pairer,
    random_entrants_tournament,
)

TARGETS = {100: 1.0, 500: 10.0}
STANDINGS_TARGET = 1.0
TIEBREAKS = ["BH-C1", "BH", "SB", "DE", "WIN", "BPG"]


def bench_pairing(players: int) -> float:
    t = random_entrants_tournament(players, 9, seed=players)
    t = play_random_rounds(
        t, 4, quick_swiss_pairer, seed=players, absence_rate=0.02, forfeit_rate=0.01
    )
    started = time.perf_counter()
    pairing = pair_next_round(t)
    elapsed = time.perf_counter() - started
    assert len(pairing.boards) >= players // 2 - players // 20
    return elapsed


def bench_standings(players: int) -> float:
    t = random_entrants_tournament(players, 9, seed=7)
    t = play_random_rounds(t, 9, quick_swiss_pairer, seed=7, absence_rate=0.02, forfeit_rate=0.01)
    started = time.perf_counter()
    table = standings(t, TIEBREAKS)
    elapsed = time.perf_counter() - started
    assert len(table) == players
    return elapsed


def main() -> int:
    print(RULES_VERSION)
    ok = True
    for players, target in TARGETS.items():
        elapsed = bench_pairing(players)
        ok &= elapsed < target
        print(f"pair round 5, {players:4d} players: {elapsed:6.3f} s (target < {target:g} s)")
    elapsed = bench_standings(1000)
    ok &= elapsed < STANDINGS_TARGET
    print(
        f"standings + {len(TIEBREAKS)} tie-breaks, 1000 players, 9 rounds: {elapsed:6.3f} s "
        f"(target < {STANDINGS_TARGET:g} s)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
