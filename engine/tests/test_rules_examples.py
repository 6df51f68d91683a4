"""The worked examples of RULES.md §8, and the basic rules of §1–§5."""

from __future__ import annotations

import pytest

from engine import (
    STANDARD_BOARD,
    Color,
    IllegalTurnError,
    Position,
    Termination,
    Turn,
)

MOVEMENT = "B4W21,C1W00,D4B22,E3W31,E5B00,F7B03 w 0-0"
STARVATION = "B4W21,B5B00,C1W00,C3W00,C5W00,D4B32,D5B00,E3W21,E7B00,F7B22 w 0-0"


def test_d5_neighbours_as_in_the_russian_rules() -> None:
    assert set(STANDARD_BOARD.neighbours("D5")) == {"C4", "C5", "D4", "D6", "E5", "E6"}


def test_standard_board_has_37_cells_in_the_documented_columns() -> None:
    assert len(STANDARD_BOARD) == 37
    assert str(STANDARD_BOARD) == "A1-4,B1-5,C1-6,D1-7,E2-7,F3-7,G4-7"


def test_movement_example_reaches_exactly_18_cells_and_attacks_e5() -> None:
    pos = Position.from_string(MOVEMENT)
    moves = {t.move for t in pos.legal_turns if t.move is not None and t.move[0] == "E3"}
    empty = sorted(to for _, to, attack in moves if not attack)
    attacks = sorted(to for _, to, attack in moves if attack)
    assert empty == [
        "B1",
        "B2",
        "B3",
        "C2",
        "C3",
        "C4",
        "D1",
        "D2",
        "D3",
        "E2",
        "E4",
        "F3",
        "F4",
        "F5",
        "F6",
        "G4",
        "G5",
        "G6",
    ]
    assert attacks == ["E5"]


def test_movement_example_reasons() -> None:
    pos = Position.from_string(MOVEMENT)
    with pytest.raises(IllegalTurnError, match="D4 has more pincers than the attacker"):
        pos.parse_turn("E3xD4,E3P")
    with pytest.raises(IllegalTurnError, match="cannot reach D5"):
        pos.parse_turn("E3-D5,D5P")
    with pytest.raises(IllegalTurnError, match="cannot reach E6"):
        pos.parse_turn("E3-E6,E6L")


def test_starvation_example() -> None:
    pos = Position.from_string(STARVATION)
    pos.push_text("C4")
    assert pos.to_string() == "B4W21,B5B00,C1W00,C3W00,C4W00,C5W00,D5B00,E3W21,E7B00 b 2-0"
    assert pos.scores == (2, 0)
    pos.pop()
    assert pos.to_string() == Position.from_string(STARVATION).to_string()


@pytest.mark.parametrize("depth, expected", [(1, 8), (2, 64), (3, 976), (4, 14880)])
def test_perft_from_the_start(depth: int, expected: int) -> None:
    assert Position.standard().perft(depth) == expected


@pytest.mark.slow
def test_perft_from_the_start_depth_5() -> None:
    assert Position.standard().perft(5) == 571347


def test_start_turns() -> None:
    pos = Position.standard()
    assert sorted(str(t) for t in pos.legal_turns) == [
        "C1",
        "C2",
        "D1",
        "D2L",
        "D2P",
        "D3",
        "E2",
        "E3",
    ]
    assert pos.legal_turns.count() == 8


def test_no_legs_reason() -> None:
    pos = Position.standard()
    with pytest.raises(IllegalTurnError) as info:
        pos.push_text("D2-D4")
    assert str(info.value) == "illegal turn 'D2-D4' in 'D2W00,D6B00 w 0-0': D2 has no legs"
    assert pos.ply == 0


def test_the_action_is_mandatory() -> None:
    pos = Position.from_string("D2W00,D3W10,D6B00 w 0-0")
    with pytest.raises(IllegalTurnError, match="the action is mandatory: 15 actions are available"):
        pos.parse_turn("D3-D4")


def test_pass_only_without_actions() -> None:
    pos = Position.standard()
    with pytest.raises(IllegalTurnError, match="a pass is legal only when no action exists"):
        pos.parse_turn("pass")


def test_pass_when_no_action_exists() -> None:
    # White: one adaptoid on each cell of a two-cell board, full and supply exhausted
    pos = Position.from_string("A1W33,A2B00 w 0-0 A1-2")
    # A1 has 6 limbs, no empty cell: no action at all; the only move is the attack
    turns = sorted(str(t) for t in pos.legal_turns)
    assert turns == ["A1xA2", "pass"]
    pos.push_text("pass")
    assert pos.side_to_move is Color.BLACK


def _exhausted() -> Position:
    """Both sides: 12 adaptoids with one leg and one pincer each: no action exists."""
    columns = "ABCDEFGHIJKL"
    board = ",".join(f"{c}1-12" for c in columns)
    white = [f"{c}{r}W11" for r in (1, 3) for c in columns[::2]]
    black = [f"{c}{r}B11" for r in (10, 12) for c in columns[::2]]
    pieces = sorted(white + black, key=lambda p: (p[0], int(p[1:-3])))
    return Position.from_string(f"{','.join(pieces)} w 0-0 {board}")


def test_move_alone_when_no_action_exists_afterwards() -> None:
    pos = _exhausted()
    turns = {str(t) for t in pos.legal_turns}
    assert "pass" in turns
    assert "A1-B1" in turns
    assert all("," not in t for t in turns)
    assert pos.legal_turns.count() == len(turns)


def test_attack_with_more_pincers_captures_and_takes_the_cell() -> None:
    pos = Position.from_string("D2W12,D3B01,D6B00 w 0-0")
    pos.push_text("D2xD3,D3L")
    assert pos.piece_at("D3") is not None
    assert pos.piece_at("D3").color is Color.WHITE  # type: ignore[union-attr]
    assert pos.piece_at("D2") is None
    assert pos.scores == (1, 0)


def test_equal_trade_removes_both_and_both_score() -> None:
    pos = Position.from_string("C2W00,D2W11,D3B01,D6B00 w 0-0")
    pos.push_text("D2xD3,C2L")
    assert pos.piece_at("D2") is None and pos.piece_at("D3") is None
    assert pos.scores == (1, 1)


def test_equal_trade_with_both_winning_is_won_by_the_mover() -> None:
    pos = Position.from_string("D2W11,D3B01,D6B00 w 4-4")
    pos.push_text("D2xD3")
    outcome = pos.outcome()
    assert outcome is not None
    assert outcome.winner is Color.WHITE
    assert outcome.termination is Termination.CAPTURES
    assert pos.result() == "1-0"


def test_move_that_wins_ends_the_turn_without_action() -> None:
    pos = Position.from_string("D2W11,D3B00,D6B00 w 4-0")
    assert Turn.parse("D2xD3") in pos.legal_turns
    with pytest.raises(IllegalTurnError, match="no action may follow"):
        pos.parse_turn("D2xD3,D2L")
    pos.push_text("D2xD3")
    assert pos.result() == "1-0"
    assert pos.legal_turns.count() == 0
    assert not pos.legal_turns


def test_attack_without_pincers_is_illegal() -> None:
    pos = Position.from_string("D2W10,D3B00 w 0-0")
    with pytest.raises(IllegalTurnError, match="D2 has no pincers"):
        pos.parse_turn("D2xD3,D2L")


def test_elimination() -> None:
    pos = Position.from_string("D2W11,D3B00 w 0-0")
    pos.push_text("D2xD3")
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination is Termination.ELIMINATION
    assert outcome.winner is Color.WHITE


def test_a_position_without_adaptoids_of_one_side_is_over() -> None:
    outcome = Position.from_string("D2W00 w 0-0").outcome()
    assert outcome is not None and outcome.winner is Color.WHITE
    assert outcome.termination is Termination.ELIMINATION


def test_own_adaptoids_never_starve() -> None:
    # White's D2 would starve (2 limbs, 1 empty neighbour) but it is White's own turn
    pos = Position.from_string("A1W11,A2B00,B1B00 w 0-0 A1-2,B1-2")
    pos.push_text("B2")
    assert pos.piece_at("A1") is not None


def test_threefold_repetition_is_a_draw() -> None:
    pos = _exhausted()
    for text in ["pass", "A12-A11", "pass", "A11-A12", "pass", "A12-A11", "pass"]:
        pos.push_text(text)
        assert pos.outcome() is None, text
    pos.push_text("A11-A12")
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination is Termination.REPETITION
    assert outcome.winner is None
    assert pos.result() == "1/2-1/2"
    assert not pos.legal_turns
    with pytest.raises(IllegalTurnError, match="the game is over"):
        pos.parse_turn("pass")
    pos.pop()
    assert pos.outcome() is None
