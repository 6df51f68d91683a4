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
from collections.abc import Callable

from engine import read_games
from engine.tests.long_walk import long_walk_record

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENGINE = str(ROOT / "engine")


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
