"""The engine against the naive reference generator (``naive.py``): the legality oracle."""

from __future__ import annotations

import pathlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Position
from engine.tests import naive
from engine.tests.randompos import random_game_position, random_position_string

PERFT_FILE = pathlib.Path(__file__).with_name("perft.txt")


def perft_cases() -> list[tuple[str, int, int]]:
    cases = []
    for line in PERFT_FILE.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        text, counts = line.split(" ; ")
        for item in counts.split():
            depth, n = item.split("=")
            cases.append((text, int(depth), int(n)))
    return cases


@pytest.mark.parametrize(("text", "depth", "expected"), perft_cases())
def test_perft_file(text: str, depth: int, expected: int) -> None:
    assert Position.from_string(text).perft(depth) == expected


def assert_same_turns(pos: Position) -> None:
    text = pos.to_string()
    reference = naive.legal_turns(naive.parse(text))
    mine = {str(t): t for t in pos.legal_turns}
    assert sorted(mine) == sorted(reference), text
    assert pos.legal_turns.count() == len(reference), text
    for turn_text, after in reference.items():
        pos.push(mine[turn_text])
        assert pos.to_string() == naive.to_string(after), (text, turn_text)
        pos.pop()
    assert pos.to_string() == text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_random_positions_agree_with_the_naive_generator(seed: int) -> None:
    rng = random.Random(seed)
    assert_same_turns(Position.from_string(random_position_string(rng)))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_game_positions_agree_with_the_naive_generator(seed: int) -> None:
    pos = random_game_position(random.Random(seed))
    if pos.is_repetition():  # the naive generator knows nothing of repetition
        return
    assert_same_turns(pos)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_perft_2_agrees_with_the_naive_generator(seed: int) -> None:
    pos = random_game_position(random.Random(seed), max_turns=30)
    state = naive.parse(pos.to_string())
    if len(naive.legal_turns(state)) > 200:
        return
    assert pos.perft(2) == naive.perft(state, 2)
