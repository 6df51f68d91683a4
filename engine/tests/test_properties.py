"""Property tests over random games and random text."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Board,
    IllegalTurnError,
    InvalidBoardError,
    InvalidPositionError,
    InvalidTurnError,
    Position,
    Turn,
)
from engine.record import GameRecord, read_games, write_game
from engine.tests.randompos import random_game_position

seeds = st.integers(0, 2**32)


def snapshot(pos: Position) -> tuple[object, ...]:
    return (pos.to_string(), pos._key(), tuple(pos._nl), tuple(pos._np), pos.ply, pos.turn_stack)


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_push_then_pop_restores_the_position_exactly(seed: int) -> None:
    rng = random.Random(seed)
    pos = random_game_position(rng)
    before = snapshot(pos)
    turns = list(pos.legal_turns)
    for turn in rng.sample(turns, min(len(turns), 40)):
        pos.push(turn)
        assert pos.pop() == turn
        assert snapshot(pos) == before
    # a longer sequence, undone in order
    pushed = 0
    while pos.outcome() is None and pushed < 30:
        pos.push(pos.random_turn(rng))
        pushed += 1
    for _ in range(pushed):
        pos.pop()
    assert snapshot(pos) == before


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_turns_format_and_parse_back(seed: int) -> None:
    pos = random_game_position(random.Random(seed))
    seen = set()
    for turn in pos.legal_turns:
        text = str(turn)
        assert text not in seen
        seen.add(text)
        assert Turn.parse(text) == turn
        assert Turn.parse(text.lower()) == turn
        assert eval(repr(turn), {"Turn": Turn}) == turn
        assert pos.parse_turn(text) == turn
        assert turn in pos.legal_turns
    assert pos.legal_turns.count() == len(seen)
    assert bool(pos.legal_turns) == bool(seen)


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_position_strings_round_trip(seed: int) -> None:
    pos = random_game_position(random.Random(seed))
    text = pos.to_string()
    again = Position.from_string(text)
    assert again == pos and again.to_string() == text
    assert eval(repr(pos), {"Position": Position}) == pos


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_random_turn_is_legal(seed: int) -> None:
    rng = random.Random(seed)
    pos = random_game_position(rng)
    if pos.outcome() is None:
        assert pos.random_turn(rng) in pos.legal_turns


@settings(max_examples=30, deadline=None)
@given(seeds)
def test_record_write_read_round_trip(seed: int) -> None:
    rng = random.Random(seed)
    pos = random_game_position(rng)
    record = GameRecord.from_position(pos, headers={"Event": f"seed {seed}"})
    if rng.random() < 0.5:
        record.comments[rng.randint(0, len(record.turns))] = "some { comment"
    text = write_game(record)
    [back] = read_games(text)
    assert back.errors == []
    assert back.turns == record.turns
    assert back.start == record.start
    assert back.result == record.result
    assert back.comments == record.comments
    assert write_game(back) == text
    assert back.replay() == pos


# -- random text raises nothing but the documented errors ---------------------

turn_alphabet = st.sampled_from(list("ABCDEFGXLPxlp0123456789-, ") + ["pass", "D2", "E3xE5"])
turn_texts = st.one_of(st.text(), st.lists(turn_alphabet, max_size=12).map("".join))
position_alphabet = st.sampled_from(
    list("ABCDGZWBwb0123456789-, ") + ["D2W00", "D6B00", " w ", " b ", "0-0", "A1-4", "\t"]
)
position_texts = st.one_of(st.text(), st.lists(position_alphabet, max_size=16).map("".join))
board_alphabet = st.sampled_from(list("ABZaz0123456789-, ") + ["A1-4", "B1-5", "99", "100"])
board_texts = st.one_of(st.text(), st.lists(board_alphabet, max_size=10).map("".join))
record_alphabet = st.sampled_from(
    ['[Event "x"]', "[", "]", '"', "\n", " ", "{", "}", ";", "%", "1.", "2...", "D3", "C6"]
    + ["D3L", "1-0", "0-1", "1/2-1/2", "*", "D2-D4", '[Position "D2W11,D3B00 w 0-0"]']
    + ['[Opening "position"]', '[Board "A1-2"]', "\\", "x"]
)
record_texts = st.one_of(st.text(), st.lists(record_alphabet, max_size=30).map("".join))


@settings(max_examples=300, deadline=None)
@given(turn_texts)
def test_turn_parse_raises_only_invalid_turn_error(text: str) -> None:
    try:
        turn = Turn.parse(text)
    except InvalidTurnError:
        return
    assert Turn.parse(str(turn)) == turn
    try:
        Position.standard().parse_turn(text)
    except (InvalidTurnError, IllegalTurnError):
        pass


@settings(max_examples=300, deadline=None)
@given(position_texts)
def test_position_from_string_raises_only_invalid_position_error(text: str) -> None:
    try:
        pos = Position.from_string(text)
    except InvalidPositionError:
        return
    assert Position.from_string(pos.to_string()) == pos
    pos.legal_turns.count()
    pos.outcome()


@settings(max_examples=300, deadline=None)
@given(board_texts)
def test_board_parse_raises_only_invalid_board_error(text: str) -> None:
    try:
        board = Board.parse(text)
    except InvalidBoardError:
        return
    assert Board.parse(str(board)) == board
    assert len(board) >= 2


@settings(max_examples=300, deadline=None)
@given(record_texts)
def test_read_games_never_raises(text: str) -> None:
    for record in read_games(text):
        assert record.index >= 1
        for error in record.errors:
            assert error.game_index == record.index
        if not record.errors and record.start:
            write_game(record)
