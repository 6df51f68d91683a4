"""Conditional replies against concurrent requests (real HTTP, PostgreSQL, threads).

The game row lock serialises the opponent's turn (with the reply it brings) and the
author's own requests: whatever the order, exactly one turn is stored at each ply and
lines are either set before the opponent's turn (and played) or refused after it.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from typing import Any

import pytest

from games import services
from games.models import ConditionalLines, Turn
from games.tests.helpers import replays_to_its_cache
from games.tests.test_race import on_postgresql  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 5


def _send(method: str, url: str, token: str, body: dict[str, Any]) -> tuple[int, Any]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method=method,
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def _at_once(*requests: tuple[str, str, str, dict[str, Any]]) -> list[tuple[int, Any]]:
    barrier = threading.Barrier(len(requests))
    answers: list[Any] = [None] * len(requests)

    def run(i: int) -> None:
        barrier.wait()
        answers[i] = _send(*requests[i])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_a_conditional_reply_and_a_manual_turn_of_the_same_player_store_one_turn(
    on_postgresql,  # noqa: F811
    live_server,
    alice,
    bob,
) -> None:
    for _round in range(ROUNDS):
        game = services.start_game(white=alice.user, black=bob.user)
        services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
        base = f"{live_server.url}/api/v1/games/{game.pk}"
        put = _send(
            "PUT", f"{base}/conditional", alice.token, {"ply": 2, "lines": [["D6L", "D2P"]]}
        )
        assert put[0] == 200
        # Bob's turn brings Alice's prepared D2P; at the same moment she sends D3 herself.
        (bob_status, bob_body), (alice_status, alice_body) = _at_once(
            ("POST", f"{base}/turns", bob.token, {"ply": 2, "turn": "D6L"}),
            ("POST", f"{base}/turns", alice.token, {"ply": 3, "turn": "D3"}),
        )
        assert bob_status == 201 and bob_body["turns"] == ["D2L", "D6L", "D2P"]
        # Before Bob's turn ply 3 is not the next one; after it, it is taken: 409 either way.
        assert alice_status == 409 and alice_body["code"] == "stale_ply"
        turns = list(Turn.objects.filter(game=game).values_list("ply", "text", "automatic"))
        assert turns == [(1, "D2L", False), (2, "D6L", False), (3, "D2P", True)]
        assert replays_to_its_cache(game.pk)
        assert not ConditionalLines.objects.filter(game=game).exists()


def test_lines_set_while_the_opponent_plays_are_played_or_refused_never_lost(
    on_postgresql,  # noqa: F811
    live_server,
    alice,
    bob,
) -> None:
    played = refused = 0
    for _round in range(ROUNDS):
        game = services.start_game(white=alice.user, black=bob.user)
        services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
        base = f"{live_server.url}/api/v1/games/{game.pk}"
        (put_status, put_body), (turn_status, turn_body) = _at_once(
            ("PUT", f"{base}/conditional", alice.token, {"ply": 2, "lines": [["D6L", "D2P"]]}),
            ("POST", f"{base}/turns", bob.token, {"ply": 2, "turn": "D6L"}),
        )
        assert turn_status == 201
        if put_status == 200:  # in first: Bob's answer has the reply
            played += 1
            assert turn_body["turns"] == ["D2L", "D6L", "D2P"]
        else:  # too late: the next turn is Alice's own
            refused += 1
            assert (put_status, put_body["code"], put_body["expected_ply"]) == (409, "stale_ply", 3)
            assert turn_body["turns"] == ["D2L", "D6L"]
        assert not ConditionalLines.objects.filter(game=game).exists()
        assert replays_to_its_cache(game.pk)
    assert played + refused == ROUNDS
