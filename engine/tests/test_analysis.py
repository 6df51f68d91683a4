"""engine.analysis: expected scores, best turns, principal variations, determinism."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import Position
from engine.analysis import Evaluation, evaluate, expected_score
from engine.tests.test_players import (
    LOSS_IN_ONE,
    WIN_BY_ATTACK,
    WIN_BY_STARVATION,
    _opponent_wins_next,
    midgame_positions,
)

ROOT = Path(__file__).resolve().parents[2]


def _repetition_draw() -> Position:
    """Both sides have 12 adaptoids with one leg and one pincer (no action exists)
    and pass or step to and fro until the position occurs a third time."""
    columns = "ABCDEFGHIJKL"
    board = ",".join(f"{c}1-12" for c in columns)
    white = [f"{c}{r}W11" for r in (1, 3) for c in columns[::2]]
    black = [f"{c}{r}B11" for r in (10, 12) for c in columns[::2]]
    pieces = sorted(white + black, key=lambda p: (p[0], int(p[1:-3])))
    pos = Position(f"{','.join(pieces)} w 0-0 {board}")
    for text in ["pass", "A12-A11", "pass", "A11-A12", "pass", "A12-A11", "pass", "A11-A12"]:
        pos.push_text(text)
    return pos


def test_finished_games_are_exactly_one_half_or_zero() -> None:
    white_won = Position("D2W00,D6B00 b 5-3")
    black_won = Position("D2W00,D6B00 w 1-5")
    eliminated = Position("D6B00 w 0-0")
    assert evaluate(white_won) == Evaluation(1.0, None, (), None, 0, 0)
    assert evaluate(black_won).expected == 0.0
    assert evaluate(eliminated, nodes=10).expected == 0.0
    draw = _repetition_draw()
    outcome = draw.outcome()
    assert outcome is not None and outcome.winner is None
    assert evaluate(draw, seconds=1) == Evaluation(0.5, None, (), None, 0, 0)


def test_a_forced_win_is_certain_and_played() -> None:
    for text in (WIN_BY_ATTACK, WIN_BY_STARVATION):
        result = evaluate(Position(text), nodes=5000)
        assert result.expected == 1.0
        assert result.best is not None and result.pv == (result.best,)
        pos = Position(text)
        pos.push(result.best)
        outcome = pos.outcome()
        assert outcome is not None and outcome.winner is not None
    # the same position with colours swapped and Black to move: White's score is 0
    mirrored = evaluate(Position("C3B11,D4W00,F7W00,G7W00 b 0-4"), nodes=5000)
    assert mirrored.expected == 0.0 and str(mirrored.best) == "C3xD4"


def test_the_best_turn_avoids_a_loss_in_one() -> None:
    pos = Position(LOSS_IN_ONE)
    result = evaluate(pos, nodes=20_000)
    assert result.best is not None
    assert not _opponent_wins_next(pos, result.best)
    assert 0.0 < result.expected < 0.5  # Black is 4-0 up, but nothing is forced yet


def test_same_node_budget_same_evaluation() -> None:
    for pos in midgame_positions(4, seed=21):
        before = str(pos)
        first = evaluate(pos, nodes=4000)
        assert evaluate(pos, nodes=4000) == first
        assert str(pos) == before and first.nodes <= 4000 + 400
        assert first.depth >= 1 and 0.0 <= first.expected <= 1.0


def test_same_node_budget_same_evaluation_in_another_process() -> None:
    pos = midgame_positions(1, seed=22)[0]
    code = (
        "from engine import Position; from engine.analysis import evaluate; "
        f"print(repr(evaluate(Position({str(pos)!r}), nodes=3000)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == repr(evaluate(pos, nodes=3000))


def test_the_principal_variation_is_a_legal_line() -> None:
    for pos in midgame_positions(3, seed=23):
        result = evaluate(pos, nodes=8000)
        assert result.pv and result.pv[0] == result.best
        assert len(result.pv) <= max(result.depth, 1)
        line = pos.copy()
        for turn in result.pv:
            assert turn in line.legal_turns
            line.push(turn)


def test_expected_score_follows_the_side_and_the_material() -> None:
    ahead = evaluate(Position("D2W00,D6B00 w 2-0"), nodes=3000).expected
    even = evaluate(Position("D2W00,D6B00 w 0-0"), nodes=3000).expected
    behind = evaluate(Position("D2W00,D6B00 w 0-2"), nodes=3000).expected
    assert ahead > even > behind
    # Black to move, Black ahead: White's expected score is low
    assert evaluate(Position("D2W00,D6B00 b 0-2"), nodes=3000).expected < 0.3
    assert expected_score(0) == 0.5
    assert expected_score(500) == pytest.approx(1 - expected_score(-500))


def test_a_time_budget_is_kept() -> None:
    pos = midgame_positions(1, seed=24)[0]
    began = time.perf_counter()
    result = evaluate(pos, seconds=0.3)
    assert time.perf_counter() - began < 0.3 * 1.5
    assert result.best in pos.legal_turns


def test_bad_budgets_are_refused() -> None:
    with pytest.raises(ValueError, match="seconds"):
        evaluate(Position.standard(), seconds=0)
    with pytest.raises(ValueError, match="nodes"):
        evaluate(Position.standard(), nodes=0)
