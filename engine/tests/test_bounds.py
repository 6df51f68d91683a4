"""Every entry point ends in bounded time and memory, whatever its input.

The edges of issue 34: a loop that looked for an opening it could never
find, a tag value read with ~200 bytes of memory per character, budgets
(time, nodes, perft depth) without end, a turn parser that raised TypeError,
and a record check that grew with the square of the game's length. Each is
refused now with a documented error, or done in linear work. None of these
tests measures time: memory is measured relative to the input, and work by
counting the engine's lines executed.
"""

from __future__ import annotations

import math
import pathlib
import random
import subprocess
import sys
import tracemalloc
from collections.abc import Callable

import pytest

from engine import (
    Board,
    InvalidBoardError,
    InvalidPositionError,
    InvalidTurnError,
    Piece,
    Position,
    Turn,
    cli,
    read_games,
)
from engine.analysis import evaluate
from engine.players import PLAYER_NAMES, get_player
from engine.players.base import MAX_SECONDS
from engine.players.match import _random_opening, play_match
from engine.tests.long_walk import BIG_BOARD, long_walk_record

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENGINE = str(ROOT / "engine")

#: White's only legal turn here is "pass": every player answers at once, whatever its budget
ONE_TURN = "A1W06,A2B00 w 0-0 A1-2"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "engine", *args],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert "Traceback" not in result.stderr
    return result


def peak_memory(work: Callable[[], object]) -> int:
    """The peak of memory allocated while ``work`` runs, in bytes."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# -- random openings ------------------------------------------------------------------


def test_an_opening_no_random_game_reaches_is_refused_instead_of_sought_for_ever() -> None:
    # random games from the start end within about 80 turns: 150 random turns that
    # leave the game running are never found
    result = run("match", "random", "random", "--games", "2", "--random-turns", "150")
    assert result.returncode == 2 and result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line == (
        "error: no opening of 150 random turns that leaves the game running was found "
        "in 1000 tries from 'D2W00,D6B00 w 0-0': ask for fewer --random-turns"
    )


def test_an_opening_as_long_as_the_game_cap_is_refused() -> None:
    with pytest.raises(ValueError, match="random_turns must be less than max_turns"):
        play_match("random", "random", games=2, seconds=0.1, seed=1, max_turns=10, random_turns=10)
    result = run("match", "random", "random", "--max-turns", "10", "--random-turns", "10")
    assert result.returncode == 2
    assert "--random-turns must be less than --max-turns" in result.stderr
    with pytest.raises(ValueError, match="random_turns is 0-1000, not 1001"):
        play_match("random", "random", games=2, seconds=0.1, max_turns=5000, random_turns=1001)
    result = run("match", "random", "random", "--max-turns", "5000", "--random-turns", "1001")
    assert result.returncode == 2 and "--random-turns must be at most 1000" in result.stderr


def test_openings_that_can_be_found_are_the_same_as_before() -> None:
    # the tries are bounded, not changed: every seeded match plays the same games
    start = "D2W00,D6B00 w 0-0"
    assert _random_opening(start, 6, random.Random(1)) == (
        "C2",
        "C6",
        "E3",
        "C6L",
        "C3",
        "C6-D7,C5",
    )
    long = _random_opening(start, 60, random.Random(1))  # most random games end before 60
    assert (len(long), long[:3], long[-1]) == (60, ("D1", "D5", "E2"), "B5-B4,F7P")


# -- game records: tag values and comments ----------------------------------------------

SIZE = 1_000_000  # characters of the hostile value: ten times the limit


def test_a_huge_tag_value_is_refused_in_memory_linear_in_its_size() -> None:
    text = f'[White "{"x" * SIZE}"]\n[Black "B"]\n\n1. D3 *\n'
    games = []
    peak = peak_memory(lambda: games.extend(read_games(text)))
    assert peak < 3 * SIZE  # one copy of the line, not ~200 bytes a character
    [game] = games
    [error] = game.errors
    assert error.message == (
        "line 1: a tag pair has at most 100000 characters, not 1000010: '[White \"" + "x" * 32 + "'"
    )
    assert "White" not in game.headers and game.headers["Black"] == "B"
    assert game.turns == ["D3"] and game.result == "*"


def test_a_tag_pair_of_the_limit_is_read() -> None:
    value = "y" * (100_000 - len('[White ""]'))
    [game] = read_games(f'[White "{value}"]\n\n1. D3 *\n')
    assert game.errors == [] and game.headers["White"] == value
    [game] = read_games(f'[White "{value}y"]\n\n1. D3 *\n')
    assert "a tag pair has at most 100000 characters, not 100001" in game.errors[0].message
    # far above the longest position: twelve adaptoids a side on the largest board
    cells = [f"{c}{r}" for c in "ABCDEFGHIJKL" for r in (98, 99)]
    pieces = ",".join(f"{cell}{'W' if i % 2 else 'B'}11" for i, cell in enumerate(cells))
    position = Position(f"{pieces} w 4-4 {BIG_BOARD}").to_string()
    [game] = read_games(f'[Opening "position"]\n[Position "{position}"]\n\n*\n')
    assert game.errors == [] and game.start == position and len(position) < 400


def test_a_tag_value_made_of_escapes_is_read_in_linear_memory() -> None:
    escaped = '\\"' * 49_000
    text = f'[White "{escaped}"]\n\n1. D3 *\n'
    games = []
    peak = peak_memory(lambda: games.extend(read_games(text)))
    assert peak < 20 * len(text)
    [game] = games
    assert game.errors == [] and game.headers["White"] == '"' * 49_000


@pytest.mark.parametrize("separator", [",", " , "])
def test_a_huge_turn_of_many_commas_is_refused_in_memory_linear_in_its_size(
    separator: str,
) -> None:
    text = f"1. D3{f'{separator}D3' * (SIZE // 4)} C6 *\n"
    games = []
    peak = peak_memory(lambda: games.extend(read_games(text)))
    assert peak < 5 * len(text)  # not ~100 bytes a character
    [game] = games
    [error] = game.errors
    assert "a turn has at most one comma" in error.message and error.turn_number == 1


def _hostile_comment(layout: str) -> str:
    """Three times :data:`MAX_COMMENT` characters of comments after the first turn."""
    words = "a " * 150_000
    if layout == "one line":
        return f"1. D3 {{ {words}}} C6 *\n"
    if layout == "many lines":
        return "1. D3 {\n" + ("a " * 50 + "\n") * 3000 + "} C6 *\n"
    if layout == "rest of line":
        return f"1. D3 ;{words}\nC6 *\n"
    assert layout == "many at one place"
    return "1. D3 " + ("{" + "a " * 20 + "}") * 7500 + " C6 *\n"


@pytest.mark.parametrize("layout", ["one line", "many lines", "rest of line", "many at one place"])
def test_a_huge_comment_is_refused_in_memory_linear_in_its_size(layout: str) -> None:
    text = f'[Event "x"]\n\n{_hostile_comment(layout)}'
    games = []
    peak = peak_memory(lambda: games.extend(read_games(text)))
    assert peak < 3 * len(text)
    [game] = games
    [error] = game.errors
    assert error.message.startswith("line 3: a comment has at most 100000 characters")
    assert error.turn_number is None and error.kind == "syntax"
    assert game.turns == ["D3", "C6"] and game.result == "*"
    assert all(len(comment) <= 100_000 for comment in game.comments.values())


def test_a_comment_of_the_limit_is_read() -> None:
    words = ("ab " * 50_000)[:100_000]
    [game] = read_games(f"1. D3 {{{words}}} *\n")
    assert game.errors == [] and game.comments == {1: words.strip()}
    [game] = read_games(f"1. D3 {{{words}b}} *\n")
    assert "a comment has at most 100000 characters" in game.errors[0].message


# -- time, node and depth budgets -------------------------------------------------------

BAD_SECONDS = [math.inf, math.nan, -1.0, 3600.5, 10**400, "1", None]


@pytest.mark.parametrize("name", PLAYER_NAMES)
def test_a_player_refuses_a_time_budget_without_end(name: str) -> None:
    for seconds in BAD_SECONDS:
        with pytest.raises(ValueError, match="the time budget is a number of seconds") as info:
            get_player(name, seed=1).choose(Position(ONE_TURN), seconds=seconds)  # type: ignore[arg-type]
        assert "more than 0 and at most 3600" in str(info.value) and len(str(info.value)) < 200
    assert str(get_player(name).choose(Position(ONE_TURN), seconds=3600)) == "pass"


def test_a_match_refuses_a_time_budget_without_end_before_it_plays() -> None:
    with pytest.raises(ValueError, match="the time budget is a number of seconds"):
        play_match("random", "random", games=2, seconds=math.inf, seed=1)


@pytest.mark.parametrize(
    ("budget", "message"),
    [
        ({"seconds": math.inf}, "the time budget is a number of seconds more than 0"),
        ({"seconds": math.nan, "nodes": 100}, "the time budget is a number of seconds"),
        ({"nodes": 100_000_001}, "nodes is a whole number from 1 to 100000000, not 100000001"),
        ({"nodes": math.inf}, "nodes is a whole number from 1 to 100000000, not inf"),
        ({"nodes": 1.5}, "nodes is a whole number from 1 to 100000000, not 1.5"),
    ],
)
def test_an_analysis_refuses_a_budget_without_end(budget: dict[str, float], message: str) -> None:
    finished = Position("D2W00,D6B00 b 5-3")
    for position in (finished, Position.standard()):
        with pytest.raises(ValueError, match=message):
            evaluate(position, **budget)  # type: ignore[arg-type]


def test_perft_refuses_depths_beyond_eight() -> None:
    for text in ("D2W00,D6B00 b 5-3", "D2W00,D6B00 w 0-0"):
        with pytest.raises(ValueError, match="the perft depth is at most 8, not 99"):
            Position(text).perft(99)
    with pytest.raises(ValueError, match="the perft depth is at most 8, not 1000000"):
        Position().perft(1_000_000)  # and never a RecursionError
    assert Position("D2W00 w 0-0").perft(8) == 0  # the limit itself: a finished game


def test_the_command_line_and_the_players_share_the_largest_time_budget() -> None:
    assert cli.MAX_SECONDS == MAX_SECONDS == 3600


@pytest.mark.parametrize("position", ["D2W00 w 0-0", "start"])
@pytest.mark.parametrize("divide", [[], ["--divide"]])
def test_the_perft_command_refuses_depths_beyond_eight(position: str, divide: list[str]) -> None:
    result = run("perft", position, "99", *divide)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "error: the depth must be 0-8, not 99\n"


# -- text parsers given something else than text ----------------------------------------


@pytest.mark.parametrize("value", [None, 3, 2.5, b"D3", ["D3"]])
def test_the_checked_turn_parsers_refuse_what_is_not_text(value: object) -> None:
    pos = Position.standard()
    for parse in (pos.push_text, pos.parse_turn):
        with pytest.raises(InvalidTurnError) as info:
            parse(value)  # type: ignore[arg-type]
        assert str(info.value) == (
            f"invalid turn {value!r} in 'D2W00,D6B00 w 0-0': "
            f"a turn must be text, not {type(value).__name__}"
        )
    assert pos.ply == 0
    with pytest.raises(InvalidTurnError, match=f"a turn must be text, not {type(value).__name__}"):
        Turn.parse(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, 10**5000, b"D2W00"], ids=["None", "huge", "bytes"])
def test_every_text_parser_refuses_what_is_not_text_with_its_own_error(value: object) -> None:
    shown = "an integer of 16610 bits" if value == 10**5000 else repr(value)
    parsers: list[tuple[Callable[[object], object], type[Exception]]] = [
        (Turn.parse, InvalidTurnError),
        (Position.standard().push_text, InvalidTurnError),
        (Position.standard().parse_turn, InvalidTurnError),
        (Position, InvalidPositionError),
        (Position.from_string, InvalidPositionError),
        (Piece.parse, InvalidPositionError),
        (lambda cell: Position.pie_setup(cell, "D6"), InvalidPositionError),  # type: ignore[arg-type]
        (Board.parse, InvalidBoardError),
    ]
    for parse, error in parsers:
        with pytest.raises(error) as info:
            parse(value)
        message = str(info.value)
        assert shown in message or type(value).__name__ in message, message
        assert len(message) < 200
    assert value not in Position.standard().legal_turns


def test_the_parsers_caches_keep_no_long_input() -> None:
    # a turn or a board padded with spaces is valid, but the caches must not keep it
    tracemalloc.start()
    try:
        for n in range(20):
            Turn.parse("D3" + " " * (100_000 + n))
            Board.parse("A1-4,B1-5,C1-6,D1-7,E2-7,F3-7,G4-7" + " " * (100_000 + n))
        kept = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert kept < 200_000  # not 40 texts of 100 kB


@pytest.mark.parametrize("source", [None, 3, b"1. D3 *\n", [b"1. D3 *\n"], ["1. D3 *\n", None]])
def test_the_record_reader_refuses_what_is_not_text(source: object) -> None:
    with pytest.raises(TypeError, match="read_games reads text: a str, a text stream or"):
        list(read_games(source))  # type: ignore[arg-type]


# -- checking a record: linear work --------------------------------------------------------


def _engine_lines(work: Callable[[], object]) -> int:
    """How many lines of the engine's own code ``work`` executes (a count, not a time)."""
    count = 0

    def local(frame: object, event: str, arg: object) -> Callable[..., object]:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def call(frame: object, event: str, arg: object) -> Callable[..., object] | None:
        return local if frame.f_code.co_filename.startswith(ENGINE) else None  # type: ignore[attr-defined]

    previous = sys.gettrace()
    sys.settrace(call)  # type: ignore[arg-type]
    try:
        work()
    finally:
        sys.settrace(previous)
    return count


def test_checking_a_record_of_quiet_turns_does_the_same_work_per_turn_at_any_length() -> None:
    # one long run of quiet turns (moves without an action): the repetition rule
    # compares each position with the run's earlier ones, in a table, not one by one
    def check(turns: int) -> Callable[[], None]:
        text = long_walk_record(turns)

        def work() -> None:
            [game] = read_games(text)
            assert game.errors == [] and len(game.turns) == turns

        return work

    short, long = _engine_lines(check(1000)), _engine_lines(check(2000))
    assert long < 2.1 * short, (short, long)
