"""Error answers in the reader's language (issue #15, item 9): the API's validation
errors (Django REST framework's own messages included: DRF has no Esperanto, so ours
carry it) and the game page's refusals, in Russian and Esperanto as in English."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import Profile
from games import services

pytestmark = pytest.mark.django_db

BAD_REQUESTS = [
    ("/api/v1/challenges", {"opponent": "bob", "color": "purple"}),  # not a valid choice
    ("/api/v1/challenges", {"opponent": "bob", "days_per_turn": 0}),  # too small
    ("/api/v1/tournaments", {"name": "", "format": "swiss"}),  # blank
    ("TURNS", {"text": "D2L", "ply": "x"}),  # not an integer
    ("TURNS", {"ply": 1}),  # required
    ("TURNS", {"text": "D2L", "ply": 1, "idempotency_key": "x" * 200}),  # too long
]


def _error(client: Any, path: str, body: dict[str, Any], language: str) -> str:
    answer = client.post(path, body, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert 400 <= answer.status_code < 500, (path, body, answer.status_code)
    return str(answer.json()["error"])


@pytest.mark.parametrize("language", ["ru", "eo"])
def test_api_validation_errors_are_in_the_readers_language(
    alice: Any, bob: Any, language: str
) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    for path, body in BAD_REQUESTS:
        path = f"/api/v1/games/{game.pk}/turns" if path == "TURNS" else path
        english = _error(alice.client, path, body, "en")
        shown = _error(alice.client, path, body, language)
        # The field's name (an API identifier) stays; the words after it do not.
        field, _sep, words = english.partition(": ")
        assert shown.startswith(f"{field}: ") and words, english
        assert words not in shown, f"{language}: {shown!r}"


@pytest.mark.parametrize("language", ["ru", "eo"])
def test_a_hand_made_turn_without_a_turn_number_is_a_clear_400(
    client: Any, alice: Any, bob: Any, language: str
) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    client.force_login(alice.user)
    english = client.post(f"/games/{game.pk}/play/", {"turn": "D2L", "ply": "x"})
    assert english.status_code == 400 and b"whole number" in english.content
    Profile.objects.filter(user=alice.user).update(language=language)
    client.force_login(alice.user)  # a new session takes the profile's language
    shown = client.post(f"/games/{game.pk}/play/", {"turn": "D2L", "ply": "x"})
    assert shown.status_code == 400 and b"ply" in shown.content
    assert b"whole number" not in shown.content
