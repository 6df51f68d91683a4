"""Names that pass for others, names that hide characters, tokens after a new password."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from accounts import services
from conftest import PASSWORD

User = get_user_model()


@pytest.mark.parametrize(
    "username",
    [
        "ａｌｉｃｅ",  # fullwidth letters
        "аlice",  # a Cyrillic а among Latin letters
        "paſs",  # long s: NFKC makes it "pass"
        "alice@imported",  # the namespace of imported players
        "bob\u200b",  # zero-width space
        "eve\u202e",  # right-to-left override
    ],
)
@pytest.mark.django_db
def test_sign_up_refuses_a_name_that_passes_for_another(api: Any, username: str) -> None:
    answer = api.post(
        "/api/v1/accounts", {"username": username, "password": PASSWORD}, format="json"
    )
    assert answer.status_code == 400, answer.json()
    assert answer.json()["code"] == "invalid"
    assert "username" in answer.json()["fields"]
    assert not User.objects.filter(username=username).exists()


@pytest.mark.parametrize("username", ["дмитрий", "alice_2", "Zoë"])
@pytest.mark.django_db
def test_sign_up_takes_names_in_one_alphabet(api: Any, username: str) -> None:
    answer = api.post(
        "/api/v1/accounts", {"username": username, "password": PASSWORD}, format="json"
    )
    assert answer.status_code == 201, answer.json()


@pytest.mark.django_db
def test_the_database_refuses_a_username_differing_only_by_case() -> None:
    # Not the service's check: the unique index itself (two concurrent sign-ups).
    User.objects.create(username="RaceUser1")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="RACEUSER1")


@pytest.mark.django_db
def test_a_display_name_with_a_bidi_override_is_refused(client: Any) -> None:
    user = services.register_account(username="shown", password=PASSWORD)
    client.force_login(user)
    answer = client.post(
        "/settings/",
        {"display_name": "gnp.exe\u202e", "email": "", "language": "en", "time_zone": "UTC"},
    )
    assert answer.status_code == 200
    assert "U+202E" in answer.content.decode()
    user.profile.refresh_from_db()
    assert user.profile.display_name == ""


@pytest.mark.django_db
def test_a_new_password_revokes_the_old_api_tokens(client: Any) -> None:
    user = services.register_account(username="changer", password=PASSWORD)
    token = services.create_token(user=user)
    assert services.user_for_token(token) == user
    client.force_login(user)
    answer = client.post(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "another-long-password-4711",
            "new_password2": "another-long-password-4711",
        },
    )
    assert answer.status_code == 302
    assert services.user_for_token(token) is None
