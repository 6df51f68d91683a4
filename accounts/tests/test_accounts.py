"""Sign-up and bearer tokens (stored hashed)."""

from __future__ import annotations

import hashlib

import pytest

from accounts.models import ApiToken, Profile

pytestmark = pytest.mark.django_db

GOOD = "a-long-and-unusual-passphrase"


def test_sign_up_then_get_a_token_then_use_it(api) -> None:
    created = api.post("/api/v1/accounts", {"username": "zoe", "password": GOOD}, format="json")
    assert created.status_code == 201 and created.json()["username"] == "zoe"
    assert Profile.objects.get(user__username="zoe").rating == 1500.0
    token = api.post("/api/v1/auth/token", {"username": "zoe", "password": GOOD}, format="json")
    assert token.status_code == 200
    raw = token.json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert api.get("/api/v1/challenges").status_code == 200
    stored = ApiToken.objects.get()
    # Only the hash is stored, never the secret; the prefix finds the row.
    assert stored.digest == hashlib.sha256(raw.encode()).hexdigest()
    assert raw.startswith(stored.prefix + ".") and raw not in (stored.digest, stored.prefix)
    assert stored.last_used is not None


def test_revoked_token_is_refused(api, alice) -> None:
    ApiToken.objects.filter(user=alice.user).update(revoked="2026-01-01T00:00:00Z")
    answer = alice.client.get("/api/v1/challenges")
    assert answer.status_code == 401 and answer.json()["code"] == "authentication_failed"


@pytest.mark.parametrize(
    ("password", "reason"),
    [("short", "too short"), ("password123", "too common"), ("83749201947", "entirely numeric")],
)
def test_weak_passwords_are_refused_with_the_reason(api, password, reason) -> None:
    answer = api.post("/api/v1/accounts", {"username": "zoe", "password": password}, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "weak_password"
    assert reason in answer.json()["error"]
    assert answer.json()["fields"]["password"]


def test_password_like_the_username_is_refused(api) -> None:
    answer = api.post(
        "/api/v1/accounts", {"username": "zoezoezoe", "password": "zoezoezoe1"}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["code"] == "weak_password"


def test_taken_and_invalid_usernames(api, alice) -> None:
    taken = api.post("/api/v1/accounts", {"username": "ALICE", "password": GOOD}, format="json")
    assert taken.status_code == 409 and taken.json()["code"] == "username_taken"
    bad = api.post("/api/v1/accounts", {"username": "no spaces!", "password": GOOD}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    missing = api.post("/api/v1/accounts", {}, format="json")
    assert missing.status_code == 400 and set(missing.json()["fields"]) == {"username", "password"}


def test_wrong_password_gets_no_token(api, alice) -> None:
    answer = api.post(
        "/api/v1/auth/token", {"username": "alice", "password": "nope"}, format="json"
    )
    assert answer.status_code == 401 and answer.json()["code"] == "bad_credentials"
    assert answer["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    ("path", "scope"), [("/api/v1/accounts", "accounts"), ("/api/v1/auth/token", "token")]
)
def test_sign_up_and_token_are_throttled(api, settings, path, scope) -> None:
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, scope: "2/hour"}
    for _ in range(2):
        api.post(path, {"username": "x", "password": "y"}, format="json")
    answer = api.post(path, {"username": "x", "password": "y"}, format="json")
    assert answer.status_code == 429 and answer.json()["code"] == "throttled"
    assert int(answer["Retry-After"]) > 0
