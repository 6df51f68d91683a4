"""games.services directly: constraints, hooks and the rules other apps rely on."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from engine import IllegalTurnError, InvalidTurnError
from games import errors, services, signals
from games.models import Game, Turn

pytestmark = pytest.mark.django_db


def test_the_database_refuses_two_turns_at_one_ply(alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    Turn.objects.create(game=game, ply=1, text="D2L", player=alice.user)
    with pytest.raises(IntegrityError), transaction.atomic():
        Turn.objects.create(game=game, ply=1, text="D2P", player=alice.user)


def test_hooks_fire_for_turns_and_the_end_of_the_game(alice, bob) -> None:
    seen: list[tuple[str, int]] = []

    def on_turn(sender, game, turn, **kwargs) -> None:
        seen.append(("turn", turn.ply))

    def on_finish(sender, game, **kwargs) -> None:
        seen.append((f"finished {game.result} {game.termination}", game.ply))

    signals.turn_played.connect(on_turn)
    signals.game_finished.connect(on_finish)
    try:
        game = services.start_game(white=alice.user, black=bob.user)
        game, created = services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
        assert created
        services.resign(game=game, player=bob.user)
    finally:
        signals.turn_played.disconnect(on_turn)
        signals.game_finished.disconnect(on_finish)
    assert seen == [("turn", 1), ("finished 1-0 resignation", 1)]


def test_engine_errors_and_domain_errors_carry_their_meaning(alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    with pytest.raises(InvalidTurnError):
        services.play_turn(game=game, player=alice.user, text="hello", ply=1)
    with pytest.raises(IllegalTurnError):
        services.play_turn(game=game, player=alice.user, text="D2-D3", ply=1)
    with pytest.raises(errors.StalePly) as stale:
        services.play_turn(game=game, player=alice.user, text="D2L", ply=3)
    assert stale.value.code == "stale_ply" and stale.value.details == {"expected_ply": 1}
    with pytest.raises(errors.NotYourTurn):
        services.play_turn(game=game, player=bob.user, text="D6L", ply=1)


def test_finish_game_refuses_a_second_ending(alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    services.finish_game(game=game, result="1/2-1/2", termination="abandoned")
    with pytest.raises(errors.GameOver):
        services.finish_game(game=game, result="1-0", termination="timeout")
    with pytest.raises(errors.InvalidInput):
        services.finish_game(game=game, result="*", termination="timeout")


def test_a_game_can_start_from_a_custom_position(alice, bob) -> None:
    start = "B4W21,C1W00,D4B22,E3W31,E5B00,F7B03 w 0-0"
    game = services.start_game(white=alice.user, black=bob.user, start_position=start)
    assert (game.opening, game.position, game.to_move) == (Game.Opening.CUSTOM, start, "white")
    game, _ = services.play_turn(game=game, player=alice.user, text="E3xE5,E5P", ply=1)
    assert game.position.endswith(" b 1-0")
    with pytest.raises(errors.InvalidInput):
        services.start_game(white=alice.user, black=bob.user, start_position="nonsense")
