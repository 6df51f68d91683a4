"""A real Celery worker process runs the verification tasks on the tests' database."""

from __future__ import annotations

import pytest

from archive.tasks import verify_game, verify_recent_games
from games import services

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_worker_verifies_a_game_stored_by_the_tests(celery_worker_process, alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    for ply, (player, text) in enumerate(
        [(alice, "D2L"), (bob, "D6L"), (alice, "D2-D3,D3P")], start=1
    ):
        game, _ = services.play_turn(game=game, player=player.user, text=text, ply=ply)
    summary = verify_game.delay(game.pk).get(timeout=30)
    # The worker read the game from the same test database and replayed it with the engine.
    assert summary == {
        "game": game.pk, "ok": True, "ply": 3, "position": game.position, "result": "*",
    }  # fmt: skip


def test_the_worker_verifies_the_games_finished_lately(celery_worker_process, alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    services.resign(game=game, player=bob.user)  # committed: the worker can read it
    summary = verify_recent_games.delay().get(timeout=30)
    assert summary == {"checked": 1, "mismatches": []}
