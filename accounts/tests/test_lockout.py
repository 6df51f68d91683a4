"""Brute force: log-in lockout per account and per address (website, admin, API), and
password-reset e-mails per address per hour."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from accounts import services
from conftest import PASSWORD


@pytest.fixture
def victim(db: Any, settings: Any) -> Any:
    settings.AXES_FAILURE_LIMIT = 3
    user = services.register_account(username="victim", password=PASSWORD)
    user.email = "victim@example.org"
    user.save()
    return user


@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_after_the_limit_even_the_right_password_does_not_log_in(
    client: Any, victim: Any, path: str
) -> None:
    statuses = [
        client.post(path, {"username": "victim", "password": f"wrong-{attempt}"}).status_code
        for attempt in range(3)
    ]
    assert statuses == [200, 200, 429]  # the form with its error, then the lockout
    answer = client.post(path, {"username": "victim", "password": PASSWORD})
    assert answer.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_new_address_does_not_help_a_locked_account(client: Any, victim: Any) -> None:
    for attempt in range(3):
        client.post(
            "/accounts/login/",
            {"username": "victim", "password": f"wrong-{attempt}"},
            REMOTE_ADDR=f"192.0.2.{attempt + 1}",
        )
    answer = client.post(
        "/accounts/login/", {"username": "victim", "password": PASSWORD}, REMOTE_ADDR="192.0.2.99"
    )
    assert answer.status_code == 429


def test_the_token_api_locks_out_too(api: Any, victim: Any) -> None:
    codes = []
    for attempt in range(3):
        answer = api.post(
            "/api/v1/auth/token",
            {"username": "victim", "password": f"wrong-{attempt}"},
            format="json",
        )
        codes.append(answer.json()["code"])
    answer = api.post(
        "/api/v1/auth/token", {"username": "victim", "password": PASSWORD}, format="json"
    )
    assert codes == ["bad_credentials", "bad_credentials", "locked_out"]
    assert answer.status_code == 429 and answer.json()["code"] == "locked_out"


def test_a_right_password_before_the_limit_logs_in(client: Any, victim: Any) -> None:
    client.post("/accounts/login/", {"username": "victim", "password": "wrong"})
    answer = client.post("/accounts/login/", {"username": "victim", "password": PASSWORD})
    assert answer.status_code == 302
    assert "_auth_user_id" in client.session


def test_reset_mails_to_one_address_are_capped_per_hour(
    client: Any, victim: Any, settings: Any
) -> None:
    settings.PASSWORD_RESET_MAILS_PER_HOUR = 3
    for _ in range(6):
        answer = client.post("/accounts/reset/", {"email": "victim@example.org"})
        assert answer.status_code == 302  # "sent", every time
    assert len(mail.outbox) == 3
