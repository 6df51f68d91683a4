"""Command line: pair the next round, rank the players or check the rounds of a TRF-16 file.

``python -m tournaments.pairing [pair] FILE.trf [--system dutch|burstein|dubov] [--rules 2026|2017]``
    Output is the same as ``bbpPairings --dutch FILE -p``: the number of
    pairs, then one ``WHITE BLACK`` line of starting ranks per board in board
    order, the pairing-allocated bye written ``ID 0``.

``python -m tournaments.pairing standings FILE.trf --tiebreaks BH,BH-C1,SB,WIN,WON,PS``
    A header line (``RANK ID POINTS`` and the tie-break codes), then one line
    per player ``RANK ID POINTS TB1 TB2 ...`` in rank order, numbers as
    decimals (``7.5``, ``6.75``). FIDE C.07 (2023); a player whose last
    entries are all zero-point byes counts as withdrawn before them.

``python -m tournaments.pairing check FILE.trf [--rules 2026|2017]``
    One line per violation of the absolute criteria (round, players, rule),
    or ``no violations``.

Exit status: 0 on success (``check``: no violation), 1 when no valid pairing
exists or no round is left to pair (``check``: violations found), 2 for a
file that cannot be read or makes no sense, or a bad option.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tournaments.pairing.checker import check_tournament
from tournaments.pairing.model import TournamentError, format_points
from tournaments.pairing.standings import (
    SWISS_TIEBREAKS,
    TIEBREAK_NAMES,
    format_tiebreak,
    standings,
    trailing_absences,
)
from tournaments.pairing.swiss import (
    DEFAULT_RULES,
    RULES,
    RULES_VERSIONS,
    SYSTEM_VERSIONS,
    SYSTEMS,
    PairingError,
    pair_next_round,
)
from tournaments.pairing.trf import TrfDocument, TrfError, read_trf

EXIT_NO_PAIRING = 1
EXIT_VIOLATIONS = 1
EXIT_BAD_INPUT = 2
COMMANDS = ("pair", "standings", "check")


class _BadInput(Exception):
    """A file or an option that cannot be used; the message is printed as is."""


def _read(path: str, *, require_total_rounds: bool) -> TrfDocument:
    try:
        with open(path, encoding="utf-8", errors="replace", newline="") as handle:
            text = handle.read()
        return read_trf(text, require_total_rounds=require_total_rounds)
    except OSError as error:
        raise _BadInput(f"error: cannot read {path}: {error.strerror}") from error
    except TrfError as error:
        raise _BadInput(f"error: {path}: {error}") from error


def _pair(args: argparse.Namespace) -> int:
    tournament = _read(args.file, require_total_rounds=True).tournament
    try:
        pairing = pair_next_round(tournament, system=args.system, rules=args.rules)
    except TournamentError as error:
        raise _BadInput(f"error: {args.file}: {error}") from error
    except PairingError as error:
        print(f"no valid pairing: {error}", file=sys.stderr)
        return EXIT_NO_PAIRING
    lines = [str(len(pairing.boards))]
    lines += [f"{white} {black}" for white, black in pairing.pairs()]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _tiebreak_list(text: str) -> list[str]:
    names = [name.strip().upper() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in TIEBREAK_NAMES]
    if unknown:
        raise _BadInput(
            f"error: unknown tie-break(s) {', '.join(unknown)}; known: {', '.join(TIEBREAK_NAMES)}"
        )
    return names


def _standings(args: argparse.Namespace) -> int:
    names = _tiebreak_list(args.tiebreaks)
    tournament = _read(args.file, require_total_rounds=False).tournament
    try:
        table = standings(tournament, names, withdrawals=trailing_absences(tournament))
    except TournamentError as error:
        raise _BadInput(f"error: {args.file}: {error}") from error
    lines = [" ".join(["RANK", "ID", "POINTS", *names])]
    for line in table:
        values = [format_tiebreak(n, v) for n, v in zip(names, line.tiebreaks, strict=True)]
        points = format_points(line.points, ascii=True)
        lines.append(" ".join([str(line.rank), str(line.player_id), points, *values]))
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _check(args: argparse.Namespace) -> int:
    tournament = _read(args.file, require_total_rounds=False).tournament
    try:
        violations = check_tournament(tournament, rules=args.rules)
    except TournamentError as error:
        raise _BadInput(f"error: {args.file}: {error}") from error
    if not violations:
        print("no violations")
        return 0
    for violation in violations:
        print(violation)
    return EXIT_VIOLATIONS


def _parser(command: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"python -m tournaments.pairing {command}")
    parser.add_argument("file", help="tournament in TRF-16")
    if command == "pair":
        parser.description = "Pair the next round (XXR required)."
        parser.add_argument(
            "--system",
            choices=SYSTEMS,
            default="dutch",
            help="; ".join(f"{name}: {SYSTEM_VERSIONS[name]}" for name in SYSTEMS),
        )
        parser.add_argument(
            "--rules",
            choices=RULES,
            default=DEFAULT_RULES,
            help="Dutch rules; " + "; ".join(f"{r}: {RULES_VERSIONS[r]}" for r in RULES),
        )
    elif command == "standings":
        parser.description = "Standings with FIDE C.07 (2023) tie-breaks."
        parser.add_argument(
            "--tiebreaks",
            default=",".join(SWISS_TIEBREAKS),
            help=f"comma-separated, in order; known: {', '.join(TIEBREAK_NAMES)}",
        )
    else:
        parser.description = "Check the rounds against the absolute pairing criteria."
        parser.add_argument("--rules", choices=RULES, default=DEFAULT_RULES, help="Dutch rules")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    command = "pair"
    if arguments and arguments[0] in COMMANDS:
        command = arguments.pop(0)
    args = _parser(command).parse_args(arguments)
    run = {"pair": _pair, "standings": _standings, "check": _check}[command]
    try:
        return run(args)
    except _BadInput as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
