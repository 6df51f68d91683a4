"""Glicko-2 against the worked example of Glickman's paper, plus its invariants."""

import doctest

import pytest

from ratings import glicko2
from ratings.glicko2 import GameResult, Rating, rate_game, update


def test_paper_worked_example() -> None:
    # Glickman, "Example of the Glicko-2 system": r=1500, RD=200, sigma=0.06 beats a
    # 1400/30 and loses to 1550/100 and 1700/300.  The paper prints r'=1464.06,
    # RD'=151.52, sigma'=0.05999 (it rounds its intermediate values, hence the tolerance).
    after = update(
        Rating(1500.0, 200.0, 0.06),
        [
            GameResult(Rating(1400.0, 30.0), 1.0),
            GameResult(Rating(1550.0, 100.0), 0.0),
            GameResult(Rating(1700.0, 300.0), 0.0),
        ],
    )
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_winner_gains_and_loser_loses_the_same_for_equal_players() -> None:
    white, black = rate_game(Rating(), Rating(), 1.0)
    assert white.rating > 1500.0 > black.rating
    assert white.rating - 1500.0 == pytest.approx(1500.0 - black.rating)
    assert white.deviation < 350.0 and black.deviation < 350.0


def test_draw_between_equals_changes_no_rating() -> None:
    white, black = rate_game(Rating(1600.0, 80.0), Rating(1600.0, 80.0), 0.5)
    assert white.rating == pytest.approx(1600.0)
    assert black.rating == pytest.approx(1600.0)


def test_upset_moves_ratings_more_than_expected_win() -> None:
    strong, weak = Rating(1900.0, 60.0), Rating(1500.0, 60.0)
    expected_win, _ = rate_game(strong, weak, 1.0)
    upset_loss, _ = rate_game(strong, weak, 0.0)
    assert 1900.0 - upset_loss.rating > expected_win.rating - 1900.0


def test_inactivity_grows_deviation_but_never_past_unrated() -> None:
    assert update(Rating(1500.0, 50.0), []).deviation > 50.0
    assert update(Rating(1500.0, 349.99, 0.5), []).deviation == 350.0


def test_score_outside_win_draw_loss_is_refused() -> None:
    with pytest.raises(ValueError, match="1, 0.5 or 0"):
        update(Rating(), [GameResult(Rating(), 2.0)])


def test_docstring_examples_run() -> None:
    assert doctest.testmod(glicko2).failed == 0
