"""A whole game through the API, and the shape of the game resource."""

from __future__ import annotations

import random

import pytest

from engine import Position
from games.models import Game, Turn
from games.tests.helpers import pick_turn, start_standard_game, submit

pytestmark = pytest.mark.django_db


def test_whole_game_played_through_the_api_reaches_a_result(alice, bob, api) -> None:
    game = start_standard_game(alice, bob, color="white")
    assert (game["white"], game["black"]) == ("alice", "bob")
    assert game["status"] == "active"
    assert game["position"] == "D2W00,D6B00 w 0-0"
    assert (game["ply"], game["to_move"], game["turns"], game["result"]) == (0, "white", [], "*")

    players = {"white": alice, "black": bob}
    rng = random.Random(7)
    replayed = Position.standard()
    for ply in range(1, 1000):
        legal = api.get(f"/api/v1/games/{game['id']}/legal").json()
        assert legal["ply"] == ply
        assert legal["turns"] == sorted(legal["turns"]) and legal["turns"]
        turn = pick_turn(game["position"], rng)
        assert turn in legal["turns"]
        answer = submit(players[game["to_move"]], game["id"], ply, turn)
        assert answer.status_code == 201, answer.json()
        game = answer.json()
        replayed.push_text(turn)
        assert game["ply"] == ply and game["turns"][-1] == turn
        assert game["position"] == str(replayed)
        if game["status"] == "finished":
            break
    assert game["status"] == "finished"
    assert game["to_move"] is None
    assert game["result"] == replayed.result() != "*"
    assert game["termination"] == replayed.outcome().termination.value
    assert Turn.objects.filter(game_id=game["id"]).count() == game["ply"]
    assert Game.objects.get(pk=game["id"]).finished is not None

    # Public read, no token needed, same answer.
    public = api.get(f"/api/v1/games/{game['id']}").json()
    assert public["turns"] == game["turns"] and public["result"] == game["result"]
    # And nothing can be played afterwards.
    legal = api.get(f"/api/v1/games/{game['id']}/legal").json()
    assert legal["turns"] == []


def test_game_resource_has_the_contract_fields(alice, bob, api) -> None:
    game = start_standard_game(alice, bob)
    body = api.get(f"/api/v1/games/{game['id']}").json()
    for field in (
        "id",
        "white",
        "black",
        "status",
        "opening",
        "position",
        "ply",
        "to_move",
        "turns",
    ):
        assert field in body
    for field in ("result", "termination", "created", "updated"):
        assert field in body
    assert body["termination"] is None


def test_resign_ends_the_game_for_the_opponent(alice, bob) -> None:
    game = start_standard_game(alice, bob, color="black")  # bob is white
    answer = alice.client.post(f"/api/v1/games/{game['id']}/resign")
    assert answer.status_code == 200
    assert (answer.json()["result"], answer.json()["termination"]) == ("1-0", "resignation")
    again = bob.client.post(f"/api/v1/games/{game['id']}/resign")
    assert again.status_code == 409 and again.json()["code"] == "game_over"
