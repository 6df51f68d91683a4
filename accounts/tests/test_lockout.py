"""Brute force: the log-in lockout locks the pair (account, address) and an address that
tries many accounts (website, admin, API), never an account from every address; the
owner is told once per cool-off; password-reset e-mails per address per hour."""

from __future__ import annotations

import datetime
import time
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Profile
from accounts.tasks import send_lockout_notice
from conftest import PASSWORD

STRANGER = "203.0.113.66"  # the stranger's address
OWNER = "198.51.100.7"  # the account owner's, elsewhere


@pytest.fixture
def victim(db: Any, settings: Any) -> Any:
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_ADDRESS_FAILURE_LIMIT = 5
    user = services.register_account(username="victim", password=PASSWORD)
    user.email = "victim@example.org"
    user.save()
    return user


@pytest.fixture
def notices_sent_here() -> Any:
    """The lockout notice task runs in this process when its commit comes (the test plays
    the worker; test_the_notice_is_sent_by_a_real_worker runs it on one)."""
    from celery import current_app

    eager = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = True
    try:
        yield
    finally:
        current_app.conf.task_always_eager = eager


def _web_login(path: str, username: str, password: str, address: str) -> Any:
    return Client(REMOTE_ADDR=address).post(path, {"username": username, "password": password})


def _token(username: str, password: str, address: str) -> Any:
    return APIClient(REMOTE_ADDR=address).post(
        "/api/v1/auth/token", {"username": username, "password": password}, format="json"
    )


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


def test_a_strangers_wrong_passwords_do_not_lock_the_owner_out_elsewhere(victim: Any) -> None:
    victim.is_staff = True  # so that the admin lets the owner in
    victim.save()
    for attempt in range(10):  # well past the limit, on every way in
        _web_login("/accounts/login/", "victim", f"wrong-{attempt}", STRANGER)
        _web_login("/admin/login/", "victim", f"wrong-{attempt}", STRANGER)
        _token("victim", f"wrong-{attempt}", STRANGER)

    # The stranger's address is locked for this account, even with the right password...
    assert _web_login("/accounts/login/", "victim", PASSWORD, STRANGER).status_code == 429
    assert _web_login("/admin/login/", "victim", PASSWORD, STRANGER).status_code == 429
    refused = _token("victim", PASSWORD, STRANGER)
    assert refused.status_code == 429 and refused.json()["code"] == "locked_out"

    # ...and the owner, from another address, logs in everywhere.
    web = Client(REMOTE_ADDR=OWNER)
    answer = web.post("/accounts/login/", {"username": "victim", "password": PASSWORD})
    assert answer.status_code == 302 and web.session["_auth_user_id"] == str(victim.pk)
    admin = Client(REMOTE_ADDR=OWNER)
    answer = admin.post("/admin/login/", {"username": "victim", "password": PASSWORD})
    assert answer.status_code == 302 and admin.session["_auth_user_id"] == str(victim.pk)
    token = _token("victim", PASSWORD, OWNER)
    assert token.status_code == 200 and token.json()["token"]


def test_an_address_that_tries_many_accounts_is_locked_for_every_account(victim: Any) -> None:
    services.register_account(username="bystander", password=PASSWORD)
    # Five guesses (AXES_ADDRESS_FAILURE_LIMIT), one or two per name: no pair reaches 3.
    answers = [_token(name, "guess", STRANGER) for name in ["ann", "ben", "cat", "ann", "ben"]]
    assert [answer.status_code for answer in answers] == [401, 401, 401, 401, 429]
    # Now every account is closed to that address, the right password or not.
    assert _token("victim", PASSWORD, STRANGER).json()["code"] == "locked_out"
    assert _web_login("/accounts/login/", "bystander", PASSWORD, STRANGER).status_code == 429
    # Another address is not concerned.
    assert _token("victim", PASSWORD, OWNER).status_code == 200


def test_refused_attempts_do_not_count_for_the_address(victim: Any) -> None:
    services.register_account(username="bystander", password=PASSWORD)
    # One account hammered: its pair locks at 3; the 17 refused attempts were no guesses.
    for attempt in range(20):
        _token("victim", f"wrong-{attempt}", STRANGER)
    assert _token("victim", PASSWORD, STRANGER).status_code == 429
    # So the address (3 guesses of 5) still logs in to another account.
    assert _token("bystander", PASSWORD, STRANGER).status_code == 200


def test_a_log_in_clears_its_pair_but_not_its_address(victim: Any) -> None:
    services.register_account(username="bystander", password=PASSWORD)
    for attempt in range(2):
        _token("victim", f"wrong-{attempt}", STRANGER)  # the pair: 2 of 3
    for name in ["ann", "ben"]:
        _token(name, "guess", STRANGER)  # the address: 4 of 5
    # Logging in to an account of its own clears that pair only: the address keeps its
    # count (an attacker could otherwise reset it with an account of its own).
    assert _token("victim", PASSWORD, STRANGER).status_code == 200
    assert _token("victim", "wrong-again", STRANGER).status_code == 429  # the address: 5
    assert _token("bystander", PASSWORD, STRANGER).json()["code"] == "locked_out"


def test_the_owner_is_told_once_per_cool_off(
    victim: Any, settings: Any, notices_sent_here: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.AXES_COOLOFF_TIME = datetime.timedelta(seconds=2)
    Profile.objects.filter(user=victim).update(language="ru")
    with django_capture_on_commit_callbacks(execute=True):
        for attempt in range(6):  # locked at the third, three more refused
            _token("victim", f"wrong-{attempt}", STRANGER)
        for attempt in range(4):  # a second stranger: another pair locked, same cool-off
            _web_login("/accounts/login/", "victim", f"wrong-{attempt}", "192.0.2.44")
        _token("nobody-here", "guess", STRANGER)  # no such account: no one to tell
    assert len(mail.outbox) == 1
    notice = mail.outbox[0]
    assert notice.to == ["victim@example.org"]
    assert notice.extra_headers["Content-Language"] == "ru"
    assert STRANGER in notice.body and "victim" in notice.body
    assert notice.subject == "Adaptoid: кто-то пытался войти в вашу учётную запись"
    assert "заблокирован на 1 минуту" in notice.body  # the catalog's plural (2 s: 1 minute)
    assert f"{django_settings.SITE_URL}/accounts/reset/" in notice.body

    time.sleep(2.2)  # the cool-off is over: the counts and the notice's mark are gone
    with django_capture_on_commit_callbacks(execute=True):
        for attempt in range(3):
            _token("victim", f"wrong-{attempt}", STRANGER)
    assert len(mail.outbox) == 2


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_notice_is_sent_by_a_real_worker(celery_worker_process: Any) -> None:
    user = services.register_account(username="worker-victim", password=PASSWORD)
    user.email = "worker-victim@example.org"
    user.save()
    result = send_lockout_notice.delay("worker-victim", STRANGER, "2026-12-04T10:00:00+00:00")
    assert result.get(timeout=60) == "sent"
    assert send_lockout_notice.delay("nobody-at-all", STRANGER, "x").get(timeout=60) == (
        "no such account with an e-mail address"
    )
    if django_settings.CELERY_BROKER_URL.startswith("redis"):
        # (The embedded file broker may be shared with another run's worker.)
        log = celery_worker_process.log()
        assert "To: worker-victim@example.org" in log and STRANGER in log, log[-3000:]


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
