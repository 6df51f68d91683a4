"""``python -m tournaments.pairing FILE.trf``: pair the next round of a TRF-16 file.

Output is the same as ``bbpPairings --dutch FILE -p``: the number of pairs,
then one ``WHITE BLACK`` line of starting ranks per board in board order,
the pairing-allocated bye written ``ID 0``.

Exit status: 0 on success, 1 when no valid pairing exists (or no round is
left to pair), 2 for a file that cannot be read or makes no sense.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tournaments.pairing.model import TournamentError
from tournaments.pairing.swiss import (
    RULES_VERSION,
    PairingError,
    pair_next_round,
)
from tournaments.pairing.trf import TrfError, read_trf

EXIT_NO_PAIRING = 1
EXIT_BAD_INPUT = 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tournaments.pairing",
        description=f"Pair the next round of a TRF-16 tournament ({RULES_VERSION}).",
    )
    parser.add_argument("file", help="tournament in TRF-16 (XXR required)")
    args = parser.parse_args(argv)
    try:
        with open(args.file, encoding="utf-8", errors="replace", newline="") as handle:
            text = handle.read()
        tournament = read_trf(text).tournament
    except OSError as error:
        print(f"error: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except TrfError as error:
        print(f"error: {args.file}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        pairing = pair_next_round(tournament)
    except TournamentError as error:
        print(f"error: {args.file}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except PairingError as error:
        print(f"no valid pairing: {error}", file=sys.stderr)
        return EXIT_NO_PAIRING
    lines = [str(len(pairing.boards))]
    lines += [f"{white} {black}" for white, black in pairing.pairs()]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
