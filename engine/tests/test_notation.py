"""Boards, position strings and turn notation: what is accepted and what is rejected."""

from __future__ import annotations

import pytest

from engine import (
    STANDARD_BOARD,
    Board,
    Color,
    IllegalTurnError,
    InvalidBoardError,
    InvalidPositionError,
    InvalidTurnError,
    Position,
    Termination,
    Turn,
)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("A1,C1", "not connected"),
        ("A1", "at least 2 cells"),
        ("A1-1", "at least 2 cells"),
        ("", "empty board"),
        ("A0-3", "row 0 is outside 1-99"),
        ("A98-100", "row 100 is outside 1-99"),
        ("Ä1-2", "a column is a letter A-Z"),
        ("11-2", "a column is a letter A-Z"),
        ("A3-1", "runs backwards"),
        ("A1-3,A2", "listed twice"),
        ("A1-3;B1", "is not a column range"),
    ],
)
def test_bad_boards(text: str, reason: str) -> None:
    with pytest.raises(InvalidBoardError, match=reason):
        Board.parse(text)


def test_custom_boards() -> None:
    board = Board.parse("z98-99, y97-98")
    assert str(board) == "Y97-98,Z98-99"
    assert board.neighbours("Z99") == ("Y98", "Z98")
    assert not board.is_standard
    assert Board.parse(str(STANDARD_BOARD)) == STANDARD_BOARD
    assert Board.parse("A1-2,A4-5,B1-5").cells == (
        "A1", "A2", "A4", "A5", "B1", "B2", "B3", "B4", "B5",
    )  # fmt: skip
    assert STANDARD_BOARD.coordinates("G7") == (6, 6)
    assert "H1" not in STANDARD_BOARD and "g7" in STANDARD_BOARD


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("D2W00,D6B00 w", "got 2 fields"),
        ("D2W00,D6B00 w 0-0 A1-4 extra", "got 5 fields"),
        ("H1W00,D6B00 w 0-0", "cell H1 is not on the board"),
        ("D2W00,D2B00 w 0-0", "cell D2 is listed twice"),
        ("D2W43 w 0-0", "7 limbs"),
        ("D2X00 w 0-0", "is not a piece"),
        ("D2W00 x 0-0", "the side to move is 'w' or 'b'"),
        ("D2W00 w 0:0", "the scores are"),
        ("D2W00 w -1-0", "the scores are"),
        ("D2W00 w 0-0 A1,C1", "not connected"),
        (
            "A1W00,A2W00,A3W00,A4W00,B1W00,B2W00,B3W00,B4W00,B5W00,C1W00,C2W00,C3W00,C4W00 w 0-0",
            "White has 13 adaptoids on the board",
        ),
        ("A1B60,A2B60,A3B10 w 0-0", "Black has 13 legs"),
        ("A1W06,A2W06,A3W01 w 0-0", "White has 13 pincers"),
    ],
)
def test_bad_position_strings(text: str, reason: str) -> None:
    with pytest.raises(InvalidPositionError, match=reason):
        Position.from_string(text)


def test_position_strings_are_canonicalised() -> None:
    pos = Position.from_string("  d6b00,D2w00   W 00-0  ")
    assert pos.to_string() == "D2W00,D6B00 w 0-0"
    assert Position.from_string("- b 1-2 A1-2").to_string() == "- b 1-2 A1-2"


def test_pie_setup() -> None:
    pos = Position.pie_setup("e5", "c3")
    assert pos.to_string() == "C3B00,E5W00 w 0-0"
    custom = Position.pie_setup("A1", "A3", Board.parse("A1-3"))
    assert custom.to_string() == "A1W00,A3B00 w 0-0 A1-3"
    with pytest.raises(InvalidPositionError, match="both adaptoids on D4"):
        Position.pie_setup("D4", "d4")
    with pytest.raises(InvalidPositionError, match="not a cell of the board"):
        Position.pie_setup("H9", "D4")


def test_empty_board_position_is_won_by_the_last_mover() -> None:
    outcome = Position.from_string("- w 0-0").outcome()
    assert outcome is not None
    assert outcome.winner is Color.BLACK and outcome.termination is Termination.ELIMINATION


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty turn"),
        ("D2-", "a move is"),
        ("D2-D4-D6", "a move is"),
        ("D2-D4,", "an action is missing"),
        (",D4", "a move is missing"),
        ("D4,D2-D4", "before the comma is not a move"),
        ("D2-D4,D4-D5", "at most one move"),
        ("D2-D4,D4Q", "is not an action"),
        ("D2-D4,D4,E4", "at most one comma"),
        ("D2 - D4", "unexpected space"),
        ("D02", "without leading zeros"),
        ("D100", "a row is a number 1-99"),
        ("D2-D2", "another cell"),
        ("pas", "expected 'pass'"),
    ],
)
def test_bad_turn_syntax(text: str, reason: str) -> None:
    with pytest.raises(InvalidTurnError, match=reason):
        Turn.parse(text)


def test_turn_notation() -> None:
    assert str(Turn.parse(" e3XE5 ,  f4 ")) == "E3xE5,F4"
    assert Turn.parse("Pass").is_pass and Turn() == Turn.parse("pass")
    assert Turn.parse("C3-C5").move == ("C3", "C5", False)
    assert Turn.parse("X5L").action == ("X5", "leg")
    assert hash(Turn.parse("D2L")) == hash(Turn.parse("d2l"))


@pytest.mark.parametrize(
    ("position", "turn", "reason"),
    [
        ("D2W00,D6B00 w 0-0", "D2-D4", "D2 has no legs"),
        ("D2W00,D6B00 w 0-0", "D3-D4", "D3 is empty"),
        ("D2W00,D6B00 w 0-0", "D6L", "D6 holds no white adaptoid"),
        ("D2W00,D6B00 w 0-0", "D6-D5", "D6 holds a black adaptoid; White is to move"),
        ("D2W00,D6B00 w 0-0", "D5", "D5 does not touch a white adaptoid"),
        ("D2W00,D6B00 w 0-0", "D6", "D6 is not empty"),
        ("D2W00,D6B00 w 0-0", "H1", "H1 is not on the board"),
        ("D2W10,D3B00,D6B00 w 0-0", "D2-D3,D2P", "an attack is written D2xD3"),
        ("D2W10,D6B00 w 0-0", "D2xD3,D3P", "D3 is empty: a move there is written D2-D3"),
        ("D2W10,D3W00,D6B00 w 0-0", "D2-D3,D2P", "D3 holds a white adaptoid"),
        ("D2W10,D6B00 w 0-0", "D2-D4,D4P", "cannot reach D4 in 1 step"),
        ("D2W11,D6B00,E3B02 w 0-0", "D2xE3", "E3 has more pincers than the attacker"),
        ("D2W60,D6B00 w 0-0", "D2L", "D2 already has 6 limbs"),
        ("D2W60,D3W60,D4W00,D6B00 w 0-0", "D4L", "White already has 12 legs"),
        ("D2W06,D3W06,D4W00,D6B00 w 0-0", "D4P", "White already has 12 pincers"),
        ("D2W11,D3B00,D6B00 w 4-0", "D2xD3,D2L", "no action may follow"),
        ("D2W00,D6B00 w 0-0", "pass", "a pass is legal only when no action exists: 8 actions"),
        ("D2W00,D6B00 w 5-0", "D2L", "the game is over (1-0 by captures)"),
    ],
)
def test_illegal_turn_reasons(position: str, turn: str, reason: str) -> None:
    pos = Position.from_string(position)
    with pytest.raises(IllegalTurnError) as info:
        pos.push_text(turn)
    assert reason in info.value.reason
    assert str(info.value).startswith(f"illegal turn {turn!r} in {position!r}: ")
    assert pos.to_string() == position and pos.ply == 0


def test_twelve_adaptoids_cannot_create() -> None:
    cells = ["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4", "B5", "C1", "C2", "C3"]
    pos = Position.from_string(",".join(f"{c}W00" for c in cells) + ",G7B00 w 0-0")
    with pytest.raises(IllegalTurnError, match="White already has 12 adaptoids"):
        pos.parse_turn("C4")
    assert all(t.action is not None and t.action[1] != "create" for t in pos.legal_turns)
