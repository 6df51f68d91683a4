"""The command line: ``python -m engine <command> ...``.

Commands (one ``cmd_*`` function each, registered in :data:`COMMANDS`):

* ``legal POSITION`` — every legal turn, canonical, one per line, sorted.
* ``perft POSITION DEPTH`` — the number of legal turn sequences (last line).
* ``play POSITION TURN...`` — the resulting position string, then the result.
* ``check FILE.agn`` — validate every game of a record file, one line per game.
* ``selfplay --games N --seed S`` — random games and a summary line.
* ``match A B --games N --time SECONDS --seed S`` — computer players against
  each other (see :mod:`engine.players.match`), one line per game, then
  ``A vs B: W-L-D, score S% ± CI%, L turns per game``.

POSITION is a position string (RULES.md §7, quote it: it has spaces) or the
word ``start`` for the standard start. Exit status: 0 success, 1 an illegal
turn (or a game with one), 2 a syntax error (bad position, turn, board or
file) or bad usage. Errors are one line on stderr, never a traceback; bad
usage is one line too (``--help`` shows the usage). Numbers are ASCII digits;
``--time`` is a finite number of seconds, more than 0 and at most
:data:`MAX_SECONDS`.

To add a command, write ``cmd_name(args) -> int`` and ``args_name(parser)``
and append a :class:`Command` to :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn

from engine._text import ASCII_SPACE, decimal, shown
from engine.errors import (
    IllegalTurnError,
    InvalidBoardError,
    InvalidPositionError,
    InvalidTurnError,
)
from engine.position import MAX_PERFT_DEPTH, STANDARD_START, Position

__all__ = [
    "COMMANDS",
    "MAX_DIGITS",
    "MAX_SECONDS",
    "Command",
    "integer",
    "main",
    "parse_position",
    "seconds",
]

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_SYNTAX = 2

#: the largest time budget per turn ``match --time`` accepts, in seconds: the
#: players' own limit (engine.players.base.MAX_SECONDS; not imported from there,
#: as the other commands do not load the players)
MAX_SECONDS = 3600.0
#: integer options and arguments have at most this many digits
MAX_DIGITS = 9

_INTEGER_RE = re.compile(r"([+-]?)([0-9]+)")
_SECONDS_RE = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")


class CommandError(Exception):
    """A failure to report on one line of stderr with an exit status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def parse_position(text: str) -> Position:
    """A position string, or ``start`` for the standard start.

    >>> parse_position("start")
    Position.from_string('D2W00,D6B00 w 0-0')
    """
    if text.strip(ASCII_SPACE).lower() == "start":
        return Position(STANDARD_START)
    return Position.from_string(text)


def integer(text: str) -> int:
    """An integer argument: ASCII digits (at most :data:`MAX_DIGITS`), optionally signed.

    Unlike ``int``, refuses ``'1_000'``, ``' 3 '``, fullwidth or Arabic-Indic
    digits and numbers too long for ``int()``.

    >>> integer("-12"), integer("+7")
    (-12, 7)
    >>> integer("9" * 5000)
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '9999999999999999999999999999999999999999'... (5000 characters) is not a whole number of at most 9 digits
    """
    m = _INTEGER_RE.fullmatch(text)
    value = decimal(m.group(2), MAX_DIGITS) if m is not None else None
    if m is None or value is None:
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is not a whole number of at most {MAX_DIGITS} digits"
        )
    return -value if m.group(1) == "-" else value


def seconds(text: str) -> float:
    """A time budget: a finite decimal number of seconds, > 0 and <= :data:`MAX_SECONDS`.

    >>> seconds("0.5"), seconds("2e1")
    (0.5, 20.0)
    >>> seconds("inf")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'inf' is not a number of seconds more than 0 and at most 3600
    """
    value = float(text) if len(text) <= 40 and _SECONDS_RE.fullmatch(text) else math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is not a number of seconds more than 0 and at most {MAX_SECONDS:g}"
        )
    return value


def _file_name(name: str) -> str:
    return name if name.isprintable() else shown(name)


# -- commands -----------------------------------------------------------------


def args_legal(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", help="position string or 'start'")


def cmd_legal(args: argparse.Namespace) -> int:
    pos = parse_position(args.position)
    for text in sorted(str(turn) for turn in pos.legal_turns):
        print(text)
    return EXIT_OK


def args_perft(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", help="position string or 'start'")
    parser.add_argument("depth", type=integer, help="number of turns (>= 0)")
    parser.add_argument(
        "--divide", action="store_true", help="first print each turn with its own count"
    )


def cmd_perft(args: argparse.Namespace) -> int:
    pos = parse_position(args.position)
    if not 0 <= args.depth <= MAX_PERFT_DEPTH:
        raise CommandError(f"the depth must be 0-{MAX_PERFT_DEPTH}, not {args.depth}", EXIT_SYNTAX)
    if args.divide and args.depth >= 1 and pos._state_outcome() is None:
        total = 0
        for turn in sorted(pos._raw_turns(), key=lambda raw: str(pos._raw_to_turn(raw))):
            pos._push_raw(turn)
            n = pos.perft(args.depth - 1)
            pos._pop_raw()
            print(f"{pos._raw_to_turn(turn)} {n}")
            total += n
        print(total)
    else:
        print(pos.perft(args.depth))
    return EXIT_OK


def args_play(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", help="position string or 'start'")
    parser.add_argument("turns", nargs="*", metavar="TURN", help="turns in notation (§6)")


def cmd_play(args: argparse.Namespace) -> int:
    pos = parse_position(args.position)
    for number, text in enumerate(args.turns, 1):
        try:
            pos.push_text(text)
        except (InvalidTurnError, IllegalTurnError) as exc:
            status = EXIT_SYNTAX if isinstance(exc, InvalidTurnError) else EXIT_ILLEGAL
            raise CommandError(f"turn {number}: {exc}", status) from None
    print(pos.to_string())
    print(pos.result())
    return EXIT_OK


def args_check(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a game record file (.agn); '-' reads stdin")


def cmd_check(args: argparse.Namespace) -> int:
    from engine.record import read_games

    try:
        stream = (
            sys.stdin if args.file == "-" else open(args.file, encoding="utf-8", newline="")  # noqa: SIM115
        )
    except OSError as exc:
        raise CommandError(
            f"cannot read {_file_name(args.file)}: {exc.strerror}", EXIT_SYNTAX
        ) from None
    illegal = syntax = games = 0
    first_bad = ""
    try:
        for record in read_games(stream):
            games += 1
            name = record.describe()
            if not record.errors:
                n = len(record.turns)
                print(
                    f"game {record.index}: ok ({name}, {n} turn{'s' if n != 1 else ''}, "
                    f"{record.result})"
                )
                continue
            illegal_errors = [e for e in record.errors if e.kind == "illegal"]
            kind = "illegal" if illegal_errors else "syntax"
            first = (illegal_errors or record.errors)[0]
            where = f"turn {first.turn_number}: " if first.turn_number else ""
            more = f" (+{len(record.errors) - 1} more)" if len(record.errors) > 1 else ""
            print(f"game {record.index}: {kind} ({name}): {where}{first.message}{more}")
            if kind == "illegal":
                illegal += 1
            else:
                syntax += 1
            first_bad = first_bad or f"game {record.index}"
    except UnicodeDecodeError as exc:
        raise CommandError(
            f"{_file_name(args.file)} is not UTF-8 text: {exc.reason}", EXIT_SYNTAX
        ) from None
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise CommandError(f"cannot read {_file_name(args.file)}: {why}", EXIT_SYNTAX) from None
    finally:
        if stream is not sys.stdin:
            stream.close()
    bad = illegal + syntax
    if bad:
        print(
            f"error: {_file_name(args.file)}: {bad} of {games} game{'s' if games != 1 else ''} "
            f"with errors ({illegal} with an illegal turn or result; first: {first_bad})",
            file=sys.stderr,
        )
    if illegal:
        return EXIT_ILLEGAL
    return EXIT_SYNTAX if syntax else EXIT_OK


def args_selfplay(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=integer, default=100, help="number of games (default 100)")
    parser.add_argument("--seed", type=integer, default=None, help="random seed")
    parser.add_argument(
        "--position", default="start", help="start position string or 'start' (default)"
    )
    parser.add_argument(
        "--max-turns", type=integer, default=10_000, help="stop a game after this many turns"
    )
    parser.add_argument("--verbose", action="store_true", help="print one line per game")


def cmd_selfplay(args: argparse.Namespace) -> int:
    start = parse_position(args.position)
    if args.games < 0 or args.max_turns < 1:
        raise CommandError("--games must be >= 0 and --max-turns >= 1", EXIT_SYNTAX)
    rng = random.Random(args.seed)
    results: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    total_turns = 0
    began = time.perf_counter()
    for number in range(1, args.games + 1):
        pos = start.copy()
        outcome = pos.outcome()
        plies = 0
        while outcome is None and plies < args.max_turns:
            pos._push_raw(pos._random_raw(rng))
            plies += 1
            outcome = pos.outcome()
        total_turns += plies
        result = "*" if outcome is None else outcome.result()
        results[result] += 1
        reasons[outcome.termination.value if outcome else "unfinished"] += 1
        if args.verbose:
            print(f"game {number}: {result} in {plies} turns: {pos.to_string()}")
    seconds = time.perf_counter() - began
    rate = args.games / seconds if seconds > 0 else float("inf")
    why = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
    print(
        f"{args.games} games, seed {args.seed}: white {results['1-0']}, black {results['0-1']}, "
        f"draws {results['1/2-1/2']}, unfinished {results['*']} ({why or 'none'}); "
        f"{total_turns} turns, {total_turns / max(args.games, 1):.1f} per game; "
        f"{seconds:.3f} s, {rate:.1f} games/s"
    )
    return EXIT_OK


def args_match(parser: argparse.ArgumentParser) -> None:
    from engine.players import PLAYER_NAMES
    from engine.players.match import MAX_TURNS

    names = ", ".join(PLAYER_NAMES)
    parser.add_argument("a", metavar="PLAYER_A", help=f"one of {names}")
    parser.add_argument("b", metavar="PLAYER_B", help="the opponent")
    parser.add_argument("--games", type=integer, default=10, help="number of games (default 10)")
    parser.add_argument(
        "--time",
        type=seconds,
        default=1.0,
        help=f"seconds per turn for each player, at most {MAX_SECONDS:g} (default 1)",
    )
    parser.add_argument("--seed", type=integer, default=None, help="random seed")
    parser.add_argument(
        "--position", default="start", help="start position string or 'start' (default)"
    )
    parser.add_argument(
        "--max-turns",
        type=integer,
        default=MAX_TURNS,
        help=f"a game still running after this many turns is a draw (default {MAX_TURNS})",
    )
    parser.add_argument(
        "--random-turns",
        type=integer,
        default=0,
        help="start each pair of games with this many random turns, fewer than --max-turns "
        "(default 0)",
    )
    parser.add_argument(
        "--jobs",
        type=integer,
        default=1,
        help="games played at once in worker processes; the same games for any value (default 1)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the summary line")


def cmd_match(args: argparse.Namespace) -> int:
    from engine.players import PLAYER_NAMES
    from engine.players.match import (
        MAX_RANDOM_TURNS,
        GameResult,
        MatchResult,
        OpeningError,
        play_match,
    )

    for name in (args.a, args.b):
        if name not in PLAYER_NAMES:
            raise CommandError(
                f"unknown player {name!r}: choose one of {', '.join(PLAYER_NAMES)}", EXIT_SYNTAX
            )
    if args.games < 1 or args.max_turns < 1 or args.random_turns < 0 or args.jobs < 1:
        raise CommandError(
            "--games, --max-turns and --jobs must be >= 1, --random-turns >= 0", EXIT_SYNTAX
        )
    if args.random_turns > MAX_RANDOM_TURNS:
        raise CommandError(f"--random-turns must be at most {MAX_RANDOM_TURNS}", EXIT_SYNTAX)
    if args.random_turns and args.random_turns >= args.max_turns:
        raise CommandError("--random-turns must be less than --max-turns", EXIT_SYNTAX)
    start = parse_position(args.position)
    if start.outcome() is not None:
        raise CommandError("the start position is already over", EXIT_SYNTAX)

    def progress(number: int, game: GameResult, match: MatchResult) -> None:
        if args.quiet:
            return
        print(
            f"game {number}: {game.white} (white) - {game.black} (black) {game.result} "
            f"by {game.reason} in {game.turns} turns; slowest turn "
            f"{game.slowest[0]:.3f} s / {game.slowest[1]:.3f} s",
            flush=True,
        )

    try:
        match = play_match(
            args.a,
            args.b,
            games=args.games,
            seconds=args.time,
            seed=args.seed,
            max_turns=args.max_turns,
            start=start.to_string(),
            random_turns=args.random_turns,
            progress=progress,
            jobs=args.jobs,
        )
    except OpeningError as exc:
        raise CommandError(f"{exc}: ask for fewer --random-turns", EXIT_SYNTAX) from None
    if not args.quiet:
        slowest = ", ".join(f"{name} {t:.3f} s" for name, t in match.slowest.items())
        print(f"slowest turn (budget {args.time:g} s): {slowest}")
    print(match.summary())
    return EXIT_OK


# -- the table ----------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """A subcommand: its name, one-line help, argument set-up and implementation."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


COMMANDS: list[Command] = [
    Command("legal", "print every legal turn, sorted", args_legal, cmd_legal),
    Command("perft", "count legal turn sequences of a given length", args_perft, cmd_perft),
    Command("play", "apply turns, print the position and the result", args_play, cmd_play),
    Command("check", "validate every game of a record file (.agn)", args_check, cmd_check),
    Command("selfplay", "play random games, print a summary", args_selfplay, cmd_selfplay),
    Command("match", "play computer players against each other", args_match, cmd_match),
]


class _Parser(argparse.ArgumentParser):
    """Usage errors are one line (argparse prints the usage, then the error)."""

    def error(self, message: str) -> NoReturn:
        message = " ".join(message.split())
        if len(message) > 300:
            message = f"{message[:200]}... ({len(message)} characters)"
        raise CommandError(f"{self.prog}: {message} (see --help)", EXIT_SYNTAX)


def build_parser(commands: Sequence[Command] = COMMANDS) -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m engine",
        description="Adaptoid rules engine. POSITION is a position string or 'start'.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in commands:
        p = sub.add_parser(command.name, help=command.help, description=command.help)
        command.add_arguments(p)
        p.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    for stream in (sys.stdout, sys.stderr):
        # a name or comment in a record may not be encodable on this terminal
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        args = build_parser().parse_args(argv)
        return int(args.run(args))
    except CommandError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.status
    except IllegalTurnError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ILLEGAL
    except (InvalidTurnError, InvalidPositionError, InvalidBoardError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_SYNTAX
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
