"""Inputs that used to answer 500 get a 400 with the usual error body."""

from __future__ import annotations

from typing import Any

import pytest


def _post_raw(client: Any, path: str, body: str, **extra: Any) -> Any:
    return client.generic("POST", path, body.encode("utf-8", "surrogatepass"),
                          content_type="application/json", **extra)  # fmt: skip


@pytest.mark.django_db
def test_json_nested_a_thousand_deep_is_a_parse_error(client: Any) -> None:
    body = "[" * 1000 + "]" * 1000
    answer = _post_raw(client, "/api/v1/accounts", body)
    assert answer.status_code == 400
    assert answer.json()["code"] == "parse_error"
    assert "nested" in answer.json()["error"]


@pytest.mark.django_db
def test_a_lone_surrogate_in_a_string_is_a_parse_error(alice: Any) -> None:
    answer = alice.client.generic(
        "PATCH",
        "/api/v1/me/preferences",
        '{"time_zone": "\\ud800"}',
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "parse_error"


@pytest.mark.django_db
def test_a_number_beyond_64_bits_is_a_parse_error(alice: Any) -> None:
    answer = alice.client.post(
        "/api/v1/notifications/read",
        '{"ids": [286900815173480120320]}',
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "parse_error"


@pytest.mark.django_db
def test_five_thousand_digits_are_refused_before_python_converts_them(client: Any) -> None:
    answer = _post_raw(client, "/api/v1/accounts", '{"username": ' + "9" * 5000 + "}")
    assert answer.status_code == 400
    assert answer.json()["code"] == "parse_error"


@pytest.mark.django_db
def test_a_nul_in_a_json_string_is_a_parse_error(client: Any) -> None:
    answer = _post_raw(client, "/api/v1/accounts", '{"username": "a\\u0000b", "password": "x"}')
    assert answer.status_code == 400
    assert answer.json()["code"] == "parse_error"


@pytest.mark.django_db
def test_a_nul_in_an_api_address_names_nothing(client: Any) -> None:
    answer = client.get("/api/v1/players/a%00b")
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"


@pytest.mark.django_db
def test_a_nul_in_a_query_value_is_the_filters_field_error(client: Any) -> None:
    answer = client.get("/api/v1/games?player=a%00b")
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"


@pytest.mark.django_db
def test_a_nul_in_a_page_address_is_a_404(client: Any) -> None:
    assert client.get("/players/a%00b/").status_code == 404


@pytest.mark.django_db
def test_a_body_over_the_upload_limit_gets_a_json_error(client: Any, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    answer = _post_raw(client, "/api/v1/accounts", '{"username": "' + "x" * 2000 + '"}')
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_request"


@pytest.mark.parametrize(
    "path",
    ["/api/v1/games/{id}", "/api/v1/games/{id}/legal", "/api/v1/tournaments/{id}",
     "/api/v1/imports/{id}", "/api/v1/bot-matches/{id}", "/games/{id}/", "/tournaments/{id}/"],
)  # fmt: skip
def test_an_id_beyond_64_bits_in_an_address_is_a_404(alice: Any, path: str) -> None:
    # On SQLite such an id once reached the database as an OverflowError (#14.9).
    answer = alice.client.get(path.format(id=2**64 + 1))
    assert answer.status_code == 404, (path, answer.status_code)
