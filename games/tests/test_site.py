"""Health check, OpenAPI schema and docs, admin pages."""

from __future__ import annotations

import pytest
import yaml
from django.core.management import call_command

from games import services

pytestmark = pytest.mark.django_db


def test_healthz_reports_database_cache_and_broker(client) -> None:
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {
        "status": "ok", "database": "ok", "cache": "ok", "broker": "ok",
        # The stream service's seats (stream/tests/test_stream_total.py): none taken.
        "streams": "ok",
        "stream_slots": {
            "open": 0, "bots": 0, "pages": 0, "others": 0, "cap": 90, "reserved_for_bots": 30,
        },
    }  # fmt: skip


def test_healthz_is_503_when_the_cache_is_down(client, settings) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        }
    }
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["cache"].startswith("error") and answer.json()["database"] == "ok"
    assert answer.json()["streams"].startswith("error")  # counted in the cache


def test_schema_is_valid_and_documents_every_endpoint_and_error(client, tmp_path) -> None:
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    paths = schema["paths"]
    for path in (
        "/api/v1/accounts", "/api/v1/auth/token", "/api/v1/challenges",
        "/api/v1/challenges/{challenge_id}/accept", "/api/v1/challenges/{challenge_id}/decline",
        "/api/v1/challenges/{challenge_id}/cancel", "/api/v1/games", "/api/v1/games/{game_id}",
        "/api/v1/games/{game_id}/legal", "/api/v1/games/{game_id}/turns", "/api/v1/games/{game_id}/setup",
        "/api/v1/games/{game_id}/choose", "/api/v1/games/{game_id}/resign", "/api/v1/games/{game_id}/record",
        "/api/v1/stream/events", "/api/v1/stream/page-events",
    ):  # fmt: skip
        assert path in paths, path
    turn_answers = paths["/api/v1/games/{game_id}/turns"]["post"]["responses"]
    assert {"200", "201", "400", "401", "403", "404", "409", "422", "429"} <= set(turn_answers)
    conditional = paths["/api/v1/games/{game_id}/conditional"]
    assert {"200", "400", "401", "403", "404", "409", "422"} <= set(conditional["put"]["responses"])
    assert {"200", "401", "404"} <= set(conditional["get"]["responses"])
    assert {"204", "401", "403", "404"} <= set(conditional["delete"]["responses"])
    page_events = paths["/api/v1/stream/page-events"]["get"]
    assert "text/event-stream" in page_events["responses"]["200"]["content"]
    assert {"400", "401", "429"} <= set(page_events["responses"])
    assert schema["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    served = client.get("/api/v1/schema")
    assert served.status_code == 200 and b"openapi" in served.content


def test_interactive_docs_are_served_without_a_cdn(client) -> None:
    page = client.get("/api/v1/docs")
    assert page.status_code == 200
    html = page.content.decode()
    assert "swagger-ui" in html and "cdn" not in html.lower()
    # The sidecar's bundle is served by us.
    assert (
        client.get(
            "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js"
        ).status_code
        == 200
    )


def test_admin_pages_work_for_an_organiser(client, alice, bob, django_user_model) -> None:
    organiser = django_user_model.objects.create_superuser(
        "organiser", "o@example.org", "pw-organiser-123"
    )
    client.force_login(organiser)
    game = services.start_game(white=alice.user, black=bob.user)
    services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    for url in (
        "/admin/", "/admin/games/game/", f"/admin/games/game/{game.pk}/change/", "/admin/games/turn/",
        "/admin/games/challenge/", "/admin/accounts/profile/", "/admin/accounts/apitoken/",
        f"/admin/auth/user/{alice.user.pk}/change/",
    ):  # fmt: skip
        assert client.get(url).status_code == 200, url
