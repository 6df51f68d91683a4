"""Usernames that look like an existing one (ASCII look-alikes: 0/O, 1/l/I, rn/m, vv/w)
are refused at sign-up, on the site and through the API, naming the account they look
like; names that merely resemble one are taken."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from accounts import services
from accounts.imported import imported_player
from accounts.usernames import username_skeleton
from conftest import PASSWORD

User = get_user_model()

LOOK_ALIKES = [
    ("rt00", "rt0O"),
    ("rt00", "rtOO"),
    ("rt01", "rt0l"),
    ("rt01", "rtOI"),
    ("m", "rn"),
    ("rn", "m"),
    ("modern", "rnodern"),
    ("w", "vv"),
    ("alice", "AIice"),
    ("Bob", "b0b"),
]


def _sign_up(api: Any, username: str) -> Any:
    return api.post("/api/v1/accounts", {"username": username, "password": PASSWORD}, format="json")


@pytest.mark.parametrize(("existing", "newcomer"), LOOK_ALIKES)
@pytest.mark.django_db
def test_the_api_refuses_a_name_that_looks_like_an_existing_one(
    api: Any, existing: str, newcomer: str
) -> None:
    services.register_account(username=existing, password=PASSWORD)
    answer = _sign_up(api, newcomer)
    assert answer.status_code == 409, answer.json()
    assert answer.json()["code"] == "username_look_alike"
    assert f"looks like the existing account {existing}:" in answer.json()["error"]
    assert answer.json()["fields"]["username"] == [answer.json()["error"]]
    assert not User.objects.filter(username=newcomer).exists()


@pytest.mark.django_db
def test_the_sign_up_page_says_which_account_the_name_looks_like(client: Any) -> None:
    services.register_account(username="rt01", password=PASSWORD)
    page = client.post(
        "/signup/",
        {"username": "rt0l", "password1": PASSWORD, "password2": PASSWORD, "email": ""},
    )
    assert page.status_code == 200
    assert page.context["form"].errors["username"] == [
        "This username looks like the existing account rt01: choose another one."
    ]
    assert not User.objects.filter(username="rt0l").exists()


@pytest.mark.parametrize(
    ("existing", "newcomer"),
    [("rt00", "rt02"), ("rn", "rm"), ("alice", "alicia"), ("ann", "anna"), ("bob", "rob")],
)
@pytest.mark.django_db
def test_names_that_only_resemble_one_are_taken(api: Any, existing: str, newcomer: str) -> None:
    services.register_account(username=existing, password=PASSWORD)
    assert _sign_up(api, newcomer).status_code == 201


@pytest.mark.django_db
def test_accounts_made_elsewhere_keep_their_look_alikes_away_too(api: Any) -> None:
    # The admin, the demo data and the bots make accounts without the sign-up service.
    User.objects.create_user(username="rt00")
    assert _sign_up(api, "rt0O").json()["code"] == "username_look_alike"
    # A renamed account keeps the new name's look-alikes away, no longer the old one's.
    user = User.objects.get(username="rt00")
    user.username = "bill"
    user.save()
    assert _sign_up(api, "rt0O").status_code == 201
    assert _sign_up(api, "biII").json()["code"] == "username_look_alike"


@pytest.mark.django_db
def test_imported_players_neither_keep_names_away_nor_are_kept_away(api: Any) -> None:
    # Names from imported files live in the @imported namespace (inactive accounts that
    # may even carry a registered account's exact name): no look-alike rule between them.
    imported_player("rt00")
    assert _sign_up(api, "rt0O").status_code == 201
    assert imported_player("rt0o").username == "rt0o@imported"


def test_the_skeleton_is_unicodes_then_case_folded() -> None:
    assert username_skeleton("rt00") == username_skeleton("rt0O") == username_skeleton("RTOO")
    assert username_skeleton("m") == username_skeleton("rn")
    assert username_skeleton("раураl") == username_skeleton("paypal")  # Cyrillic letters
    assert username_skeleton("rtoi") != username_skeleton("rt0l")
