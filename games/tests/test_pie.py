"""Pie opening: the first player places both adaptoids, the second chooses a colour."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.awaiting import action_needed
from games.models import Game
from games.tests.helpers import submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def pie_game(alice, bob):
    # alice asked for White: she is the one who places the pieces.
    made = alice.client.post(
        "/api/v1/challenges", {"opponent": "bob", "opening": "pie", "color": "white"}, format="json"
    )
    game = bob.client.post(f"/api/v1/challenges/{made.json()['id']}/accept").json()["game"]
    assert (game["status"], game["position"], game["to_move"]) == ("setup", "", None)
    return game


def test_setup_then_choose_white_swaps_the_players(alice, bob, pie_game) -> None:
    game_id = pie_game["id"]
    placed = alice.client.post(
        f"/api/v1/games/{game_id}/setup", {"white": "c3", "black": "E5"}, format="json"
    )
    assert placed.status_code == 200
    assert placed.json()["position"] == "C3W00,E5B00 w 0-0"
    assert placed.json()["status"] == "setup"
    chosen = bob.client.post(f"/api/v1/games/{game_id}/choose", {"color": "white"}, format="json")
    assert chosen.status_code == 200
    game = chosen.json()
    assert (game["status"], game["white"], game["black"], game["to_move"]) == (
        "active",
        "bob",
        "alice",
        "white",
    )
    assert submit(bob, game_id, 1, "C3L").status_code == 201


def test_choose_black_keeps_the_setter_as_white(alice, bob, pie_game) -> None:
    alice.client.post(
        f"/api/v1/games/{pie_game['id']}/setup", {"white": "C3", "black": "E5"}, format="json"
    )
    game = bob.client.post(
        f"/api/v1/games/{pie_game['id']}/choose", {"color": "black"}, format="json"
    ).json()
    assert (game["white"], game["black"], game["status"]) == ("alice", "bob", "active")


def test_pie_steps_in_the_wrong_order_or_by_the_wrong_player(
    alice, bob, stranger, pie_game
) -> None:
    url = f"/api/v1/games/{pie_game['id']}"
    early = bob.client.post(f"{url}/choose", {"color": "white"}, format="json")
    assert early.status_code == 409 and early.json()["code"] == "wrong_phase"
    wrong = bob.client.post(f"{url}/setup", {"white": "C3", "black": "E5"}, format="json")
    assert wrong.status_code == 409 and wrong.json()["code"] == "not_your_turn"
    outsider = stranger.client.post(f"{url}/setup", {"white": "C3", "black": "E5"}, format="json")
    assert outsider.status_code == 403 and outsider.json()["code"] == "not_a_player"
    assert (
        alice.client.post(f"{url}/setup", {"white": "C3", "black": "E5"}, format="json").status_code
        == 200
    )
    twice = alice.client.post(f"{url}/setup", {"white": "C3", "black": "E5"}, format="json")
    assert twice.status_code == 409 and twice.json()["code"] == "wrong_phase"
    own_choice = alice.client.post(f"{url}/choose", {"color": "white"}, format="json")
    assert own_choice.status_code == 409 and own_choice.json()["code"] == "not_your_turn"


@pytest.mark.parametrize(
    ("cells", "code"),
    [
        ({"white": "C3", "black": "C3"}, "invalid_setup"),
        ({"white": "Z9", "black": "E5"}, "invalid_setup"),
        ({"white": "C3"}, "invalid"),
    ],
)
def test_bad_setups_are_refused(alice, pie_game, cells, code) -> None:
    answer = alice.client.post(f"/api/v1/games/{pie_game['id']}/setup", cells, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == code and answer.json()["error"]


def test_bad_colour_choice_is_invalid(alice, bob, pie_game) -> None:
    alice.client.post(
        f"/api/v1/games/{pie_game['id']}/setup", {"white": "C3", "black": "E5"}, format="json"
    )
    answer = bob.client.post(
        f"/api/v1/games/{pie_game['id']}/choose", {"color": "red"}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"


def test_pie_step_is_placing_by_white_then_choosing_by_black_everywhere(
    alice, bob, pie_game
) -> None:
    game = Game.objects.get(pk=pie_game["id"])
    page = Client()
    page.force_login(bob.user)
    seen = []
    for act in (
        lambda: services.setup_pie(game=game, player=alice.user, white="C3", black="E5"),
        lambda: services.choose_color(game=game, player=bob.user, color="white"),
    ):
        game.refresh_from_db()
        status = page.get(f"/games/{game.pk}/").content.decode().split('id="game-status">')[1]
        seen.append((game.pie_step(), game.who_must_act(), action_needed(game), status[:80]))
        act()
    game.refresh_from_db()
    assert game.pie_step() is None and action_needed(game) == "turn"
    assert [step[:3] for step in seen] == [
        (("place", "white"), alice.user.pk, "place"),
        (("choose", "black"), bob.user.pk, "choose"),
    ]
    assert "Pie opening: alice places" in seen[0][3]
    assert "Pie opening: bob chooses" in seen[1][3]
