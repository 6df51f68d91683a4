"""The opening explorer is throttled (#28.11): 8 unthrottled anonymous clients raised
another user's request from 20 ms to 320 ms.  The API and the page share one allowance
(THROTTLE_EXPLORER: a burst of N, then N per period), per user when signed in, else per
address.  Past it: 429 `throttled` with Retry-After (the API), a page that says so."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

API = "/api/v1/explorer"
PAGE = "/explorer/"


@pytest.fixture(autouse=True)
def three_a_minute(settings: Any) -> None:
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "explorer": "3/minute"}


def visitor(address: str) -> APIClient:
    return APIClient(REMOTE_ADDR=address)


def test_an_anonymous_address_gets_a_burst_then_429_with_retry_after() -> None:
    client = visitor("203.0.113.1")
    assert [client.get(API).status_code for _ in range(3)] == [200, 200, 200]
    refused = client.get(API, {"position": "anything"})
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "throttled" and body["error"]
    assert int(refused["Retry-After"]) == body["retry_after"] and 1 <= body["retry_after"] <= 20
    # Another address has its own allowance.
    assert visitor("203.0.113.2").get(API).status_code == 200


def test_the_page_shares_the_apis_allowance_and_says_why_it_refuses() -> None:
    api, page = visitor("203.0.113.7"), Client(REMOTE_ADDR="203.0.113.7")
    assert page.get(PAGE).status_code == 200
    assert [api.get(API).status_code for _ in range(2)] == [200, 200]
    refused = page.get(PAGE)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    text = refused.content.decode()
    assert "Too many requests" in text and "explorer pages too fast" in text
    assert api.get(API).json()["code"] == "throttled"


def test_a_signed_in_user_is_counted_per_account_from_any_address(alice: Any) -> None:
    for address in ("198.51.100.1", "198.51.100.2", "198.51.100.3"):
        alice.client.defaults["REMOTE_ADDR"] = address
        assert alice.client.get(API).status_code == 200
    alice.client.defaults["REMOTE_ADDR"] = "198.51.100.4"
    assert alice.client.get(API).status_code == 429
    # Her page views count against her account too, not against the address.
    page = Client(REMOTE_ADDR="198.51.100.5")
    page.force_login(alice.user)
    assert page.get(PAGE).status_code == 429
    assert Client(REMOTE_ADDR="198.51.100.5").get(PAGE).status_code == 200


def test_the_refusal_page_is_translated() -> None:
    page = Client(REMOTE_ADDR="203.0.113.9", HTTP_ACCEPT_LANGUAGE="ru")
    statuses = [page.get(PAGE).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    text = page.get(PAGE).content.decode()
    assert "Слишком много запросов" in text and "страницы справочника слишком часто" in text
