"""Issue #14.11: Redis (cache and broker) down, against a real gunicorn on the test
database: what commits answers success, never a 500, and a retried challenge with the
same Idempotency-Key is not a second challenge.  The work a lost message would have
started is queued again by the beat sweeps (docs/reliability.md)."""

from __future__ import annotations

import datetime
import http.client
import json
import os
import signal
import tempfile
from typing import Any

import pytest
from django.utils import timezone

from accounts import services as account_services
from config.tests.servers import free_port, start_gunicorn, wait_until_listening
from core.testing import wait_for
from games import services
from games.models import Challenge, Game
from ratings.models import RatingChange
from ratings.tasks import sweep_unrated_games

PASSWORD = "redis-down-password-4711"


def _request(
    port: int, method: str, path: str, body: dict[str, Any], headers: dict[str, str]
) -> tuple[int, dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request(
        method, path, body=json.dumps(body).encode(),
        headers={"Host": "127.0.0.1", "Content-Type": "application/json", **headers},
    )  # fmt: skip
    answer = conn.getresponse()
    return answer.status, json.loads(answer.read() or b"{}")


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_posts_that_commit_answer_success_while_redis_is_down(celery_worker_process: Any) -> None:
    from django.db import connection

    alice = account_services.register_account(username="rd-alice", password=PASSWORD)
    bob = account_services.register_account(username="rd-bob", password=PASSWORD)
    game = services.start_game(white=alice, black=bob, rated=False)
    rated = services.start_game(white=alice, black=bob, rated=True)
    token = account_services.create_token(user=alice)
    auth = {"Authorization": f"Bearer {token}"}

    port, dead = free_port(), free_port()  # nothing listens on `dead`
    env = {
        **os.environ,
        "DATABASE_NAME": str(connection.settings_dict["NAME"]),
        "REDIS_URL": f"redis://127.0.0.1:{dead}/0",
        "REDIS_CACHE_URL": f"redis://127.0.0.1:{dead}/1",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "1",
        "LOG_LEVEL": "WARNING",
    }
    with tempfile.TemporaryFile() as log:
        server = start_gunicorn(env, log)
        try:
            wait_until_listening(server, port)

            status, body = _request(
                port,
                "POST",
                "/api/v1/auth/token",
                {"username": "rd-alice", "password": PASSWORD},
                {},
            )
            assert status == 200 and body.get("token"), (status, body)

            challenge = {"opponent": "rd-bob", "color": "white"}
            key = {"Idempotency-Key": "redis-down-retry-1"}
            first = _request(port, "POST", "/api/v1/challenges", challenge, {**auth, **key})
            # The client saw an error (or gave up) and retries with the same key.
            again = _request(port, "POST", "/api/v1/challenges", challenge, {**auth, **key})
            assert first[0] == 201, first
            assert again[0] in (200, 201) and again[1]["id"] == first[1]["id"], again
            assert Challenge.objects.filter(created_by=alice).count() == 1

            status, body = _request(
                port, "POST", f"/api/v1/games/{game.pk}/turns", {"ply": 1, "turn": "D2L"}, auth
            )
            assert status in (200, 201), (status, body)
            assert Game.objects.get(pk=game.pk).ply == 1

            # A rated game ends: committed, so a success; its rating message is lost.
            status, body = _request(port, "POST", f"/api/v1/games/{rated.pk}/resign", {}, auth)
            assert status == 200, (status, body)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(30)
            log.seek(0)
            output = log.read().decode(errors="replace")
    assert "Internal Server Error" not in output, output

    # Redis is back (the worker's): the ratings sweep rates the game the lost message
    # would have, once the ordinary task's grace time is over.
    assert Game.objects.get(pk=rated.pk).status == Game.Status.FINISHED
    assert not RatingChange.objects.filter(game=rated).exists()
    Game.objects.filter(pk=rated.pk).update(finished=timezone.now() - datetime.timedelta(minutes=2))
    sweep_unrated_games.delay()
    wait_for(lambda: RatingChange.objects.filter(game=rated).count() == 2, celery_worker_process)
