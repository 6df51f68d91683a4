"""Every error answer of the turn endpoint and friends: status, code, message."""

from __future__ import annotations

import pytest

from games.models import Turn
from games.tests.helpers import start_standard_game, submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    return start_standard_game(alice, bob, color="white")  # alice is White


def _error(answer, status: int, code: str) -> dict:
    assert answer.status_code == status, (answer.status_code, answer.content)
    body = answer.json()
    assert body["code"] == code
    assert isinstance(body["error"], str) and body["error"]
    return body


def test_bad_syntax_is_400_invalid_turn(alice, game) -> None:
    body = _error(submit(alice, game["id"], 1, "D2-"), 400, "invalid_turn")
    assert "D2-" in body["error"]


def test_illegal_turn_is_422_with_the_engines_reason(alice, game) -> None:
    body = _error(submit(alice, game["id"], 1, "D2-D4,D4P"), 422, "illegal_turn")
    assert "D2-D4" in body["error"]  # the engine names the input (and says why)
    assert not Turn.objects.exists()


def test_wrong_ply_is_409_stale_ply_with_the_expected_one(alice, game) -> None:
    body = _error(submit(alice, game["id"], 2, "D2L"), 409, "stale_ply")
    assert body["expected_ply"] == 1


def test_second_submission_of_the_same_ply_with_another_turn_gets_409(alice, game) -> None:
    assert submit(alice, game["id"], 1, "D2L").status_code == 201
    _error(submit(alice, game["id"], 1, "D2P"), 409, "stale_ply")
    assert Turn.objects.filter(game_id=game["id"]).count() == 1


def test_opponent_playing_out_of_turn_is_409_not_your_turn(bob, game) -> None:
    _error(submit(bob, game["id"], 1, "D6L"), 409, "not_your_turn")


def test_a_stranger_is_403_not_a_player(stranger, game) -> None:
    _error(submit(stranger, game["id"], 1, "D2L"), 403, "not_a_player")
    _error(stranger.client.post(f"/api/v1/games/{game['id']}/resign"), 403, "not_a_player")


def test_turn_in_a_finished_game_is_409_game_over(alice, bob, game) -> None:
    assert alice.client.post(f"/api/v1/games/{game['id']}/resign").status_code == 200
    _error(submit(bob, game["id"], 1, "D6L"), 409, "game_over")


def test_without_a_token_is_401(api, game) -> None:
    answer = api.post(f"/api/v1/games/{game['id']}/turns", {"ply": 1, "turn": "D2L"}, format="json")
    _error(answer, 401, "not_authenticated")
    assert answer["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("header", ["Bearer nonsense", "Bearer abc.def", "Bearer a b", "Bearer"])
def test_with_a_bad_token_is_401(api, game, header) -> None:
    api.credentials(HTTP_AUTHORIZATION=header)
    answer = api.post(f"/api/v1/games/{game['id']}/turns", {"ply": 1, "turn": "D2L"}, format="json")
    assert answer.status_code == 401
    assert answer.json()["code"] in ("authentication_failed", "not_authenticated")


def test_missing_fields_are_400_invalid_with_fields(alice, game) -> None:
    body = _error(
        alice.client.post(f"/api/v1/games/{game['id']}/turns", {"ply": 0}, format="json"),
        400,
        "invalid",
    )
    assert set(body["fields"]) == {"ply", "turn"}


def test_malformed_json_is_400_parse_error(alice, game) -> None:
    answer = alice.client.post(
        f"/api/v1/games/{game['id']}/turns", "{not json", content_type="application/json"
    )
    _error(answer, 400, "parse_error")


def test_unknown_game_and_unknown_url_are_404_not_found(alice, api) -> None:
    _error(submit(alice, 999999, 1, "D2L"), 404, "not_found")
    _error(api.get("/api/v1/games/999999"), 404, "not_found")
    _error(api.get("/api/v1/no-such-endpoint"), 404, "not_found")


def test_retry_of_the_same_turn_is_200_and_stores_nothing_twice(alice, game) -> None:
    first = submit(alice, game["id"], 1, "d2l")  # lower case: stored canonical
    assert first.status_code == 201
    retry = submit(alice, game["id"], 1, "D2L")
    assert retry.status_code == 200
    assert retry.json() == first.json()
    assert list(Turn.objects.filter(game_id=game["id"]).values_list("text", flat=True)) == ["D2L"]


def test_retry_still_200_after_the_opponent_replied(alice, bob, game) -> None:
    assert submit(alice, game["id"], 1, "D2L").status_code == 201
    assert submit(bob, game["id"], 2, "D6L").status_code == 201
    retry = submit(alice, game["id"], 1, "D2L")
    assert retry.status_code == 200 and retry.json()["ply"] == 2


def test_turns_are_throttled_with_429_and_retry_after(alice, game, settings) -> None:
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "turns": "2/minute"}
    submit(alice, game["id"], 1, "D2L")
    submit(alice, game["id"], 1, "D2L")
    body = _error(submit(alice, game["id"], 1, "D2L"), 429, "throttled")
    assert body["retry_after"] >= 1


def test_pie_turn_before_setup_is_409_wrong_phase(alice, bob) -> None:
    made = alice.client.post(
        "/api/v1/challenges", {"opponent": "bob", "opening": "pie", "color": "white"}, format="json"
    )
    game = bob.client.post(f"/api/v1/challenges/{made.json()['id']}/accept").json()["game"]
    _error(submit(alice, game["id"], 1, "D2L"), 409, "wrong_phase")
