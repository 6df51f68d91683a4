"""services.adjudicate: ending a game by decision keeps the record honest."""

from __future__ import annotations

import pytest

from games import errors, services
from games.models import Game

pytestmark = pytest.mark.django_db


def test_agreed_draw_finishes_the_game_as_a_draw(alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    services.adjudicate(game=game, result="1/2-1/2", termination="agreement")
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == ("finished", "1/2-1/2", "agreement")
    assert game.finished is not None and game.deadline is None


@pytest.mark.parametrize(
    ("result", "termination"),
    [("1-0", "agreement"), ("1/2-1/2", "resignation"), ("1/2-1/2", "timeout"), ("*", "abandoned")],
)
def test_result_that_contradicts_the_termination_is_refused(alice, bob, result, termination):
    game = services.start_game(white=alice.user, black=bob.user)
    with pytest.raises(errors.InvalidInput):
        services.adjudicate(game=game, result=result, termination=termination)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_engine_terminations_cannot_be_adjudicated(alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    with pytest.raises(errors.InvalidInput, match="adjudicated"):
        services.adjudicate(game=game, result="1-0", termination="captures")


def test_a_finished_game_cannot_be_adjudicated_again(alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    services.adjudicate(game=game, result="0-1", termination="abandoned")
    with pytest.raises(errors.GameOver):
        services.adjudicate(game=game, result="1-0", termination="timeout")
