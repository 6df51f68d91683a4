"""Security checks: CSRF on every form, no session auth on the API, escaped user input,
bounded bodies and uploads, revocable hashed tokens, health of the broker.

(Throttling with 429 and Retry-After is tested in test_accounts.py and
test_api_errors.py; ``check --deploy`` in config/tests/test_settings.py.)
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from accounts import services as account_services
from accounts.models import ApiToken, Profile
from archive import imports
from config.celery import app as celery_app
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


def _page_patterns() -> list[tuple[str, URLPattern]]:
    """Every URL pattern outside the API and the admin, with its route."""
    found = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                if not route.startswith(("api/", "admin/")):
                    walk(pattern.url_patterns, route)
            elif not route.startswith(("api/", "admin/")):
                found.append((route, pattern))

    walk(get_resolver().url_patterns, "")
    return found


def _sample_path(route: str) -> str:
    path = route
    for converter, value in (("<int:", "1"), ("<str:", "x"), ("<uidb64>", "MQ"), ("<token>", "t")):
        while converter in path:
            start = path.index(converter)
            end = path.index(">", start)
            path = path[:start] + value + path[end + 1 :]
    return "/" + path


CSRF_EXEMPT = {
    "healthz": "not a form: GET only, for probes",
    # RFC 8058 one-click unsubscribe: mail clients POST without a cookie; the token in
    # the URL is the proof (a forged post can only unsubscribe, from that one address).
    "notifications/unsubscribe/<str:token>/": "one-click unsubscribe",
}


def test_every_page_refuses_a_post_without_the_csrf_token(alice) -> None:
    """A forged cross-site form post is refused before any view runs, logged in or not."""
    assert len(_page_patterns()) > 20
    for logged_in in (False, True):
        client = Client(enforce_csrf_checks=True)
        if logged_in:
            client.force_login(alice.user)
        for route, _pattern in _page_patterns():
            if route in CSRF_EXEMPT:
                continue
            path = _sample_path(route)
            answer = client.post(path, {"confirm": "yes", "name": "x"})
            assert answer.status_code == 403, (path, logged_in, answer.status_code)


def test_forms_carry_a_csrf_token(alice) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice.user)
    for path in ("/settings/", "/lobby/", "/import/"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert 'name="csrfmiddlewaretoken"' in page.content.decode(), path


def test_the_api_ignores_session_cookies(alice, bob) -> None:
    """Only bearer tokens authenticate the API: a logged-in browser cannot be made to play."""
    game = services.start_game(white=alice.user, black=bob.user)
    browser = Client()
    browser.force_login(alice.user)
    answer = browser.post(
        f"/api/v1/games/{game.pk}/turns",
        json.dumps({"ply": 1, "turn": "D2L"}),
        content_type="application/json",
    )
    assert answer.status_code == 401
    assert Game.objects.get(pk=game.pk).ply == 0


def test_tokens_are_stored_hashed_and_revoked_tokens_refused(alice) -> None:
    token = ApiToken.objects.get(user=alice.user)
    assert token.digest == hashlib.sha256(alice.token.encode()).hexdigest()
    assert alice.token.split(".", 1)[1] not in (token.digest, token.prefix)
    assert alice.client.get("/api/v1/challenges").status_code == 200
    # Revoked from the settings page: the token stops working at once.
    browser = Client()
    browser.force_login(alice.user)
    assert browser.post(f"/settings/token/{token.pk}/revoke/").status_code == 302
    answer = alice.client.get("/api/v1/challenges")
    assert answer.status_code == 401 and answer.json()["code"] == "authentication_failed"
    # A token of the same prefix with another secret is refused too.
    forged = f"{token.prefix}.{'A' * 43}"
    assert account_services.user_for_token(forged) is None


def test_oversized_json_body_is_refused_not_a_server_error(api) -> None:
    body = json.dumps({"username": "x" * 3_000_000, "password": "y"})
    answer = api.post("/api/v1/accounts", body, content_type="application/json")
    assert 400 <= answer.status_code < 500, answer.status_code


def _imported_game_with(names: tuple[str, str], alice: Any) -> Game:
    text = (
        f'[White "{names[0]}"]\n[Black "{names[1]}"]\n[Result "0-1"]\n'
        '[Termination "resignation"]\n\n1. D2L 0-1\n'
    )
    browser = Client()
    browser.force_login(alice.user)
    page = browser.post("/import/", {"file": SimpleUploadedFile("g.agn", text.encode())})
    assert page.status_code == 302  # to the import job's page (archive.imports)
    job_id = int(page["Location"].rstrip("/").rsplit("/", 1)[1])
    assert imports.run_job(job_id=job_id) == "done"  # the worker's part, here
    # The job's report names the players too: escaped there as well.
    report = browser.get(page["Location"])
    assert report.status_code == 200
    assert "<img src=x" not in report.content.decode() and SCRIPT not in report.content.decode()
    return Game.objects.filter(imported=True).latest("id")


def test_player_names_are_escaped_on_every_page(alice, bob) -> None:
    """A display name and an imported player's name that are HTML never reach a page raw."""
    Profile.objects.filter(user=bob.user).update(display_name=SCRIPT)
    game = services.start_game(white=alice.user, black=bob.user)
    services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    services.create_challenge(creator=bob.user, opponent="alice")
    imported = _imported_game_with((SCRIPT, "<img src=x onerror=alert(1)>"), alice)
    shadow = imported.white.username
    from tournaments import services as tournament_services

    staff = get_user_model().objects.create_user("organiser", is_staff=True)
    tournament = tournament_services.create_tournament(
        organiser=staff, name=f"Cup {SCRIPT}", format="roundrobin"
    )
    for player in (alice, bob):
        tournament_services.join(tournament=tournament, user=player.user)
    tournament_services.start_tournament(tournament=tournament, by=staff)

    browser = Client()
    browser.force_login(alice.user)
    pages = [
        "/",
        "/lobby/",
        f"/games/{game.pk}/",
        f"/games/{imported.pk}/",
        "/players/bob/",
        f"/players/{shadow}/",
        "/archive/",
        "/leaderboard/",
        "/tournaments/",
        f"/tournaments/{tournament.pk}/",
        f"/tournaments/{tournament.pk}/crosstable/",
        f"/tournaments/{tournament.pk}/rounds/1/",
        "/notifications/",
        "/players/bob/rating.svg",
    ]
    for path in pages:
        answer = browser.get(path)
        assert answer.status_code == 200, (path, answer.status_code)
        html = answer.content.decode()
        assert SCRIPT not in html, path
        assert "<img src=x" not in html, path
    assert ESCAPED in browser.get(f"/games/{game.pk}/").content.decode()
    assert ESCAPED in browser.get(f"/games/{imported.pk}/").content.decode()


def test_imported_names_with_url_characters_do_not_break_pages(alice) -> None:
    game = _imported_game_with(("a/b?c#d", "e f%2Fg"), alice)
    browser = Client()
    browser.force_login(alice.user)
    for path in (f"/games/{game.pk}/", "/archive/", "/"):
        answer = browser.get(path)
        assert answer.status_code == 200, (path, answer.status_code)


def test_healthz_is_503_when_the_broker_is_down(client) -> None:
    previous = celery_app.conf.broker_write_url
    celery_app.conf.broker_write_url = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    try:
        answer = client.get("/healthz")
    finally:
        celery_app.conf.broker_write_url = previous
    assert answer.status_code == 503
    body = answer.json()
    assert body["status"] == "error" and body["broker"].startswith("error")
    assert body["database"] == "ok" and body["cache"] == "ok"
    assert client.get("/healthz").status_code == 200  # and back once it answers again
