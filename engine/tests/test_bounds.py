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

import pathlib
import sys
import tracemalloc
from collections.abc import Callable

import pytest

from engine import Position, read_games
from engine.tests.long_walk import BIG_BOARD, long_walk_record

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENGINE = str(ROOT / "engine")


def peak_memory(work: Callable[[], object]) -> int:
    """The peak of memory allocated while ``work`` runs, in bytes."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


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
