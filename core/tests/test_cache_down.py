"""Redis (the cache) unreachable: throttles and the log-in lockout let requests through
(a documented choice, logged), so what commits answers success instead of a 500."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import PASSWORD

DEAD_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        # Nothing listens on port 1; fail at once rather than wait.
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


@pytest.fixture
def cache_down(settings: Any) -> None:
    settings.CACHES = DEAD_REDIS


@pytest.mark.django_db
def test_tokens_challenges_and_turns_answer_while_the_cache_is_down(
    alice: Any, bob: Any, api: Any, cache_down: None, caplog: Any
) -> None:
    token = api.post(
        "/api/v1/auth/token", {"username": "alice", "password": PASSWORD}, format="json"
    )
    assert token.status_code == 200, token.content
    challenge = alice.client.post(
        "/api/v1/challenges", {"opponent": "bob", "color": "white"}, format="json"
    )
    assert challenge.status_code == 201, challenge.content
    accepted = bob.client.post(f"/api/v1/challenges/{challenge.json()['id']}/accept")
    assert accepted.status_code == 201, accepted.content
    game = accepted.json()["game"]["id"]
    turn = alice.client.post(
        f"/api/v1/games/{game}/turns", {"ply": 1, "turn": "D2L"}, format="json"
    )
    assert turn.status_code in (200, 201), turn.content
    assert "cache unavailable" in caplog.text


@pytest.mark.django_db
def test_a_wrong_password_is_still_a_401_while_the_cache_is_down(
    alice: Any, api: Any, cache_down: None
) -> None:
    answer = api.post(
        "/api/v1/auth/token", {"username": "alice", "password": "wrong"}, format="json"
    )
    assert answer.status_code == 401 and answer.json()["code"] == "bad_credentials"
