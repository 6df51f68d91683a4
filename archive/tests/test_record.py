"""Game records: the .agn download reads back through the engine to the same game."""

from __future__ import annotations

import pytest

from engine import read_games
from games.tests.helpers import start_standard_game, submit

pytestmark = pytest.mark.django_db

TURNS = ["D2L", "D6L", "D2-D3,D3P", "D6-D5,D5P"]


@pytest.fixture
def played(alice, bob):
    game = start_standard_game(alice, bob, color="white")
    players = [alice, bob]
    for ply, turn in enumerate(TURNS, start=1):
        answer = submit(players[(ply - 1) % 2], game["id"], ply, turn)
        assert answer.status_code == 201, answer.json()
    return answer.json()


def test_record_download_reads_back_to_the_same_game(api, played) -> None:
    answer = api.get(f"/api/v1/games/{played['id']}/record")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/plain; charset=utf-8"
    assert (
        answer["Content-Disposition"] == f'attachment; filename="adaptoid-game-{played["id"]}.agn"'
    )
    records = list(read_games(answer.content.decode("utf-8")))
    assert len(records) == 1 and records[0].errors == []
    record = records[0]
    assert record.turns == played["turns"] == TURNS
    assert record.start == played["start_position"]
    assert (record.headers["White"], record.headers["Black"]) == ("alice", "bob")
    assert str(record.replay()) == played["position"]


def test_record_of_a_finished_game_carries_its_result(api, alice, played) -> None:
    alice.client.post(f"/api/v1/games/{played['id']}/resign")
    text = api.get(f"/api/v1/games/{played['id']}/record").content.decode()
    record = next(read_games(text))
    assert record.result == "0-1" and record.headers["Result"] == "0-1"


def test_record_as_json(api, played) -> None:
    answer = api.get(f"/api/v1/games/{played['id']}/record?format=json")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    body = answer.json()
    assert body["turns"] == TURNS and body["result"] == "*"
    assert next(read_games(body["text"])).turns == TURNS


def test_record_errors_are_json(api, alice, bob) -> None:
    missing = api.get("/api/v1/games/999999/record")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    made = alice.client.post(
        "/api/v1/challenges", {"opponent": "bob", "opening": "pie", "color": "white"}, format="json"
    )
    game = bob.client.post(f"/api/v1/challenges/{made.json()['id']}/accept").json()["game"]
    pending = api.get(f"/api/v1/games/{game['id']}/record")
    assert pending.status_code == 409 and pending.json()["code"] == "wrong_phase"
    unknown = api.get(f"/api/v1/games/{game['id']}/record?format=pdf")
    assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
