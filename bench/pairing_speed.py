"""Speed table of the Dutch pairing: round 5 of 9 for 100 to 2,000 players (not a test).

Run from the repository root:

    python bench/pairing_speed.py [--bbp PATH-TO-bbpPairings] [--sizes 100 300 1000 2000]

Each size is a tournament from ``tournaments.pairing.simulate`` (seed = the
number of players): rounds 1-4 set up with the fast approximate pairer and
rating-weighted random results, 2 % absences (H/Z requests) and 1 %
forfeits; then round 5 is paired once with ``pair_next_round`` (Dutch,
``rules="2026"``). With ``--bbp`` the same round, written as TRF, is also
paired by a bbpPairings executable (``--dutch``; its time includes starting
the process and reading the file) and the two pairings are compared.
One run per size: on a shared machine the figures are indicative only.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.pairing import Tournament, pair_next_round, write_trf
from tournaments.pairing.simulate import (
    play_random_rounds,
    quick_swiss_pairer,
    random_entrants_tournament,
)

ROUNDS = 9
PLAYED = 4


def middle_round(players: int) -> Tournament:
    """A tournament of ``players`` with rounds 1-4 played, round 5 to pair."""
    tournament = random_entrants_tournament(players, ROUNDS, seed=players)
    return play_random_rounds(
        tournament, PLAYED, quick_swiss_pairer, seed=players, absence_rate=0.02, forfeit_rate=0.01
    )


def bbp_pairing(executable: str, tournament: Tournament) -> tuple[float, list[tuple[int, int]]]:
    """bbpPairings' time (process included) and pairs, byes as ``(id, 0)``."""
    with tempfile.TemporaryDirectory() as folder:
        source, answer = Path(folder, "round.trf"), Path(folder, "pairs.txt")
        source.write_text(write_trf(tournament))
        started = time.perf_counter()
        subprocess.run([executable, "--dutch", str(source), "-p", str(answer)], check=True)
        elapsed = time.perf_counter() - started
        numbers = [int(word) for word in answer.read_text().split()[1:]]
    return elapsed, sorted(zip(numbers[::2], numbers[1::2], strict=True))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bbp", help="path of a bbpPairings executable to time as well")
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 300, 1000, 2000])
    options = parser.parse_args()
    print("| Players | ours (`rules=2026`) | bbpPairings | same pairing |")
    print("|---|---|---|---|")
    for players in options.sizes:
        tournament = middle_round(players)
        started = time.perf_counter()
        ours = pair_next_round(tournament, rules="2026")
        elapsed = time.perf_counter() - started
        reference, same = "", ""
        if options.bbp:
            bbp_time, bbp_pairs = bbp_pairing(options.bbp, tournament)
            reference = f"{bbp_time:.2f} s"
            same = "yes" if sorted(ours.pairs()) == bbp_pairs else "no"
        print(f"| {players} | {elapsed:.2f} s | {reference} | {same} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
