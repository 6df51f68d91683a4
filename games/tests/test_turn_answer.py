"""The answer to POST …/turns is built by hand (games.api.serializers.game_answer) for
speed: it must stay byte for byte what GameSerializer gives, in every game state, and
the errors must come in the same order as before (a missing game is a 404 first).
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from accounts.models import Profile
from clocks.timecontrol import TimeControl
from games import services
from games.api.serializers import GameSerializer, game_answer
from games.models import Game

pytestmark = pytest.mark.django_db

# A Saturday: weekend pauses show.
NOW = dt.datetime(2026, 11, 28, 12, 30, 15, 123456, tzinfo=dt.UTC)


def rendered(data: Any) -> bytes:
    return JSONRenderer().render(data)


def both(game_id: int) -> tuple[bytes, bytes]:
    """(game_answer, GameSerializer) of the stored game, rendered, at the same instant."""
    with mock.patch("django.utils.timezone.now", return_value=NOW):
        game = (
            Game.objects.select_related("white", "black").prefetch_related("turns").get(pk=game_id)
        )
        texts = [turn.text for turn in game.turns.all()]
        return rendered(game_answer(game, texts)), rendered(GameSerializer(game).data)


def test_game_answer_is_the_serializer_answer_in_every_state(alice, bob) -> None:
    standard = services.start_game(white=alice.user, black=bob.user)
    services.play_turn(game=standard, player=alice.user, text=first_turn(standard), ply=1)
    resigned = services.start_game(white=alice.user, black=bob.user)
    services.resign(game=resigned, player=bob.user)
    pie = services.start_game(white=alice.user, black=bob.user, opening=Game.Opening.PIE)
    bank = services.start_game(
        white=bob.user,
        black=alice.user,
        time_control=TimeControl.bank(10, increment_hours=7, weekend_pause=True),
        rated=False,
    )
    Profile.objects.filter(user=alice.user).update(vacation_started=timezone.now())
    on_vacation = services.start_game(white=alice.user, black=bob.user)  # clock stopped
    for game in (standard, resigned, pie, bank, on_vacation):
        mine, serializer = both(game.pk)
        assert mine == serializer


def first_turn(game: Game) -> str:
    from engine import Position

    return min(str(turn) for turn in Position.from_string(game.position).legal_turns)


def test_turn_answer_equals_the_game_detail(alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    with mock.patch("django.utils.timezone.now", return_value=NOW):
        posted = alice.client.post(
            f"/api/v1/games/{game.pk}/turns", {"ply": 1, "turn": first_turn(game)}, format="json"
        )
        detail = alice.client.get(f"/api/v1/games/{game.pk}")
        retried = alice.client.post(
            f"/api/v1/games/{game.pk}/turns", {"ply": 1, "turn": first_turn(game)}, format="json"
        )
    assert posted.status_code == 201 and retried.status_code == 200
    assert posted.content == detail.content == retried.content


def test_a_missing_game_is_a_404_whatever_else_is_wrong(alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    missing = game.pk + 1000
    for body in ({"ply": 1, "turn": "garbage!"}, {"ply": "x"}, {"ply": 1, "turn": "D2-D3"}):
        answer = alice.client.post(f"/api/v1/games/{missing}/turns", body, format="json")
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", body
    malformed = alice.client.post(
        f"/api/v1/games/{missing}/turns", b"{", content_type="application/json"
    )
    assert malformed.status_code == 404
    # The game exists: the same bodies are refused for what they are.
    garbage = alice.client.post(
        f"/api/v1/games/{game.pk}/turns", {"ply": 1, "turn": "garbage!"}, format="json"
    )
    assert garbage.status_code == 400 and garbage.json()["code"] == "invalid_turn"
    invalid = alice.client.post(f"/api/v1/games/{game.pk}/turns", {"ply": "x"}, format="json")
    assert invalid.status_code == 400 and invalid.json()["code"] == "invalid"
    wrong_side = bob.client.post(
        f"/api/v1/games/{game.pk}/turns", {"ply": 1, "turn": first_turn(game)}, format="json"
    )
    assert wrong_side.status_code == 409 and wrong_side.json()["code"] == "not_your_turn"


@pytest.mark.parametrize("zone", ["Asia/Kolkata", "Europe/London", "America/St_Johns"])
def test_the_same_in_another_current_time_zone(alice, bob, zone: str) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    services.resign(game=game, player=bob.user)  # deadline gone, finished set
    running = services.start_game(white=alice.user, black=bob.user)
    with timezone.override(zone):
        for pk in (game.pk, running.pk):
            mine, serializer = both(pk)
            assert mine == serializer
