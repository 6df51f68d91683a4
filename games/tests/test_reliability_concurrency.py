"""Fifty clients of the player to move submit the same ply at the same instant.

Real concurrent HTTP requests against a live server, each request thread on its
own PostgreSQL connection: exactly one turn is stored, every other answer is the
idempotent 200 (the very turn that won) or 409 ``stale_ply``, and the game
replays cleanly through the engine afterwards.  (SQLite serialises writers, so
there is nothing to race there: the test is skipped.)
"""

from __future__ import annotations

import http.client
import json
import threading
from collections import Counter
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from django.db import connection
from django.test.testcases import LiveServerThread, _StaticFilesHandler

from engine import Position
from games import services
from games.models import Game, Turn
from games.tests.helpers import replays_to_its_cache

pytestmark = pytest.mark.django_db(transaction=True)

CLIENTS = 50


@pytest.fixture
def on_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL row locks and one connection per request (CI runs it)")


class _WideBacklogServer(ThreadedWSGIServer):
    # Django's default listen backlog (10) resets connections beyond it under a burst.
    request_queue_size = 128


class _WideBacklogServerThread(LiveServerThread):
    server_class = _WideBacklogServer


@pytest.fixture
def burst_server(transactional_db) -> Iterator[str]:
    """A live server (thread per request) that accepts a burst of CLIENTS connections."""
    thread = _WideBacklogServerThread("127.0.0.1", _StaticFilesHandler)
    thread.daemon = True
    thread.start()
    thread.is_ready.wait(30)
    if thread.error:
        raise thread.error
    yield f"http://127.0.0.1:{thread.port}"
    thread.terminate()


def _submit_all_at_once(
    base_url: str, game_id: int, submissions: list[tuple[str, int, str]]
) -> list[tuple[str, int, dict]]:
    """POST every (token, ply, turn) from its own thread, released together by a barrier.

    Returns (turn, status, body) per submission.
    """
    address = urlsplit(base_url)
    barrier = threading.Barrier(len(submissions))
    answers: list[tuple[str, int, dict]] = []
    lock = threading.Lock()

    def run(token: str, ply: int, text: str) -> None:
        body = json.dumps({"ply": ply, "turn": text})
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        barrier.wait(30)
        conn = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
        try:
            conn.request("POST", f"/api/v1/games/{game_id}/turns", body, headers)
            response = conn.getresponse()
            payload = json.loads(response.read() or b"{}")
            with lock:
                answers.append((text, response.status, payload))
        finally:
            conn.close()

    threads = [threading.Thread(target=run, args=submission) for submission in submissions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)
    assert len(answers) == len(submissions), "some requests never got an answer"
    return answers


def _check_race(answers: list[tuple[str, int, dict]], game: Game, ply: int) -> str:
    statuses = Counter(status for _text, status, _body in answers)
    assert statuses[201] == 1, statuses
    assert set(statuses) <= {200, 201, 409}, statuses
    stored = Turn.objects.get(game=game, ply=ply)
    for text, status, body in answers:
        if status == 200:
            # The idempotent answer is given only to a retry of the turn that won.
            assert text == stored.text and body["ply"] == ply, (text, body)
        elif status == 409:
            assert text != stored.text, "a retry of the stored turn must be 200, not 409"
            assert body["code"] == "stale_ply" and body["expected_ply"] == ply + 1, body
    return stored.text


def test_fifty_concurrent_submissions_of_one_ply_store_exactly_one_turn(
    on_postgresql, burst_server, alice, bob
) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    # Half of the clients send one turn, the others every other legal first turn
    # of White in turn: they race for ply 1 against the identical submissions.
    candidates = sorted(str(turn) for turn in Position.standard().legal_turns)
    assert "D2L" in candidates and len(candidates) > 1
    others = [text for text in candidates if text != "D2L"]
    submissions = [
        (alice.token, 1, "D2L" if index % 2 == 0 else others[index % len(others)])
        for index in range(CLIENTS)
    ]
    answers = _submit_all_at_once(burst_server, game.pk, submissions)
    first = _check_race(answers, game, ply=1)

    # Then the opponent's clients race for ply 2, all with the same turn.
    answers = _submit_all_at_once(burst_server, game.pk, [(bob.token, 2, "D6L")] * CLIENTS)
    statuses = Counter(status for _text, status, _body in answers)
    assert statuses == {201: 1, 200: CLIENTS - 1}, statuses

    game.refresh_from_db()
    assert game.ply == 2
    assert list(Turn.objects.filter(game=game).values_list("ply", "text")) == [
        (1, first),
        (2, "D6L"),
    ]
    # The stored turns replay to the cached position (the verification task's check).
    assert replays_to_its_cache(game.pk)
