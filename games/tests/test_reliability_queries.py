"""A constant number of SQL queries per request, whatever the game length or page size.

Turn submission, game detail, legal turns, the record and the game list are
measured on a game two turns long and on one sixty turns long: the counts must be
equal (no query per stored turn, no N+1 over games or players).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from engine import Position, Turn
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db

SHORT, LONG = 2, 60


def long_game_turns(plies: int, seed: int = 7) -> list[str]:
    """`plies` legal turns from the standard start after which the game is still running.

    A depth-first search with backtracking over a few random turns per ply (quiet
    ones first: scores decide games quickly); deterministic for a seed.
    """
    rng = random.Random(seed)
    position = Position.standard()

    def options() -> list[Turn]:
        scores = position.scores
        quiet: list[Turn] = []
        scoring: list[Turn] = []
        for turn in sorted(position.legal_turns, key=str):
            position.push(turn)
            if position.outcome() is None:
                (quiet if position.scores == scores else scoring).append(turn)
            position.pop()
        rng.shuffle(quiet)
        rng.shuffle(scoring)
        return quiet[:4] + scoring[:2]

    stack = [options()]
    while len(position.turn_stack) < plies:
        if stack[-1]:
            position.push(stack[-1].pop(0))
            stack.append(options())
        else:
            stack.pop()
            position.pop()
    return [str(turn) for turn in position.turn_stack]


def play_without_finishing(game: Game, plies: int, seed: int = 7) -> Game:
    """Play a long_game_turns() line through the service (the game must be at its start)."""
    players = {"white": game.white, "black": game.black}
    for ply, text in enumerate(long_game_turns(plies, seed), start=1):
        game, _ = services.play_turn(game=game, player=players[game.to_move], text=text, ply=ply)
    return game


def next_turn(game: Game) -> str:
    """A legal turn for the side to move that does not end the game."""
    position = Position.from_string(game.position)
    for turn in sorted(position.legal_turns, key=str):
        position.push(turn)
        ends = position.outcome() is not None
        position.pop()
        if not ends:
            return str(turn)
    raise AssertionError("no quiet turn")


def count_queries(request: Callable[[], Any]) -> tuple[int, Any]:
    with CaptureQueriesContext(connection) as queries:
        answer = request()
    return len(queries), answer


@pytest.fixture
def games_of_two_lengths(alice, bob) -> dict[int, Game]:
    short = play_without_finishing(services.start_game(white=alice.user, black=bob.user), SHORT)
    long = play_without_finishing(services.start_game(white=alice.user, black=bob.user), LONG)
    assert (short.ply, long.ply) == (SHORT, LONG)
    return {SHORT: short, LONG: long}


def test_turn_submission_costs_the_same_queries_at_ply_2_and_ply_60(
    alice, bob, games_of_two_lengths
) -> None:
    counts = {}
    for length, game in games_of_two_lengths.items():
        mover = alice if game.to_move == "white" else bob
        # Warm the per-token "last used" write so both measurements see the same path.
        mover.client.get(f"/api/v1/games/{game.pk}")
        count, answer = count_queries(
            lambda game=game, mover=mover: mover.client.post(
                f"/api/v1/games/{game.pk}/turns",
                {"ply": game.ply + 1, "turn": next_turn(game)},
                format="json",
            )
        )
        assert answer.status_code == 201, answer.json()
        assert len(answer.json()["turns"]) == length + 1
        counts[length] = count
    assert counts[SHORT] == counts[LONG], counts
    # Token; the locked game with both players and their profiles (the clock and the
    # receivers of turn_played use those) and, on PostgreSQL, the turn texts (the answer
    # reuses them; elsewhere a query of their own); the writes: the turn and the game
    # (on PostgreSQL one statement, games.hot_writes; elsewhere two), the stream events
    # (one INSERT for both players), the opponent's notification and the mover's
    # notifications about the game marked read (on PostgreSQL one statement,
    # notifications.services.notify; elsewhere two); the savepoint and its release (the
    # transaction, in a test).
    assert counts[LONG] == (7 if connection.vendor == "postgresql" else 10), counts


def test_game_reads_cost_the_same_queries_at_ply_2_and_ply_60(api, games_of_two_lengths) -> None:
    for suffix in ("", "/legal", "/record", "/record?format=json"):
        counts = {}
        for length, game in games_of_two_lengths.items():
            count, answer = count_queries(
                lambda url=f"/api/v1/games/{game.pk}{suffix}": api.get(url)
            )
            assert answer.status_code == 200
            counts[length] = count
        assert counts[SHORT] == counts[LONG] <= 4, (suffix, counts)


def test_game_list_costs_the_same_queries_for_long_games_and_big_pages(
    api, alice, bob, stranger
) -> None:
    for opponent in (bob, stranger, bob):
        game = services.start_game(white=alice.user, black=opponent.user)
        play_without_finishing(game, LONG, seed=game.pk)
    for _ in range(9):
        services.start_game(white=stranger.user, black=bob.user)
    counts = {}
    for page_size in (1, 12):
        count, answer = count_queries(
            lambda size=page_size: api.get(f"/api/v1/games?page_size={size}&player=alice")
        )
        assert answer.status_code == 200 and len(answer.json()["results"]) == min(page_size, 3)
        counts[f"alice/{page_size}"] = count
        count, answer = count_queries(
            lambda size=page_size: api.get(f"/api/v1/games?page_size={size}")
        )
        assert answer.status_code == 200 and len(answer.json()["results"]) == page_size
        counts[f"all/{page_size}"] = count
    assert len(set(counts.values())) == 1 and counts["all/12"] <= 4, counts


def test_a_game_ending_turn_writes_the_finish_with_the_turn(alice, bob) -> None:
    # White to move at 4-0: C3xD4 reaches 5 points.
    game = services.start_game(
        white=alice.user, black=bob.user, start_position="C3W11,D4B00,F7B00,G7B00 w 4-0"
    )
    alice.client.get(f"/api/v1/games/{game.pk}")
    with CaptureQueriesContext(connection) as queries:
        answer = alice.client.post(
            f"/api/v1/games/{game.pk}/turns", {"ply": 1, "turn": "C3xD4"}, format="json"
        )
    assert answer.status_code == 201, answer.json()
    assert (answer.json()["status"], answer.json()["result"]) == ("finished", "1-0")
    game.refresh_from_db()
    assert (game.status, game.termination, game.deadline) == ("finished", "captures", None)
    statements = [query["sql"] for query in queries.captured_queries]
    if connection.vendor != "postgresql":
        return
    # The finish goes in the turn's own statement (games.hot_writes), not an UPDATE
    # of its own; both players' "game over" notifications skip a duplicate with
    # ON CONFLICT, not a savepoint each (the one savepoint is the test's transaction).
    game_table = Game._meta.db_table
    assert not [sql for sql in statements if sql.startswith(f'UPDATE "{game_table}"')]
    assert sum(sql.startswith("SAVEPOINT") for sql in statements) == 1, statements
