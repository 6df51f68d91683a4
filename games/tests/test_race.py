"""Two clients submitting the same ply at the same moment: exactly one turn is stored.

Real concurrent HTTP requests against a live server; PostgreSQL only, where the
row lock (select_for_update) is what serialises them.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest
from django.db import connection

from games import services
from games.models import Turn

pytestmark = pytest.mark.django_db(transaction=True)


def _post(url: str, token: str, body: dict) -> int:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def _race(url: str, submissions: list[tuple[str, dict]]) -> list[int]:
    barrier = threading.Barrier(len(submissions))
    statuses: list[int] = []

    def run(token: str, body: dict) -> None:
        barrier.wait()
        statuses.append(_post(url, token, body))

    threads = [threading.Thread(target=run, args=submission) for submission in submissions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return sorted(statuses)


@pytest.fixture
def on_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip(
            "concurrent submissions are tested against PostgreSQL (CI); SQLite serialises writers"
        )


def test_racing_submissions_of_one_ply_store_exactly_one_turn(
    on_postgresql, live_server, alice, bob
) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    url = f"{live_server.url}/api/v1/games/{game.pk}/turns"
    # White's two candidate first turns, sent at once by two clients of the same player.
    statuses = _race(
        url, [(alice.token, {"ply": 1, "turn": "D2L"}), (alice.token, {"ply": 1, "turn": "D2P"})]
    )
    assert statuses == [201, 409]
    assert Turn.objects.filter(game=game).count() == 1
    # The same turn twice at once: one stores it, the other is told it is already there.
    statuses = _race(
        url, [(bob.token, {"ply": 2, "turn": "D6L"}), (bob.token, {"ply": 2, "turn": "D6L"})]
    )
    assert statuses == [200, 201]
    assert list(Turn.objects.filter(game=game).values_list("ply", flat=True)) == [1, 2]
    # Both players at once, one of them out of turn.
    statuses = _race(
        url, [(alice.token, {"ply": 3, "turn": "D2P"}), (bob.token, {"ply": 3, "turn": "D6P"})]
    )
    assert statuses == [201, 409]
    assert Turn.objects.filter(game=game).count() == 3
