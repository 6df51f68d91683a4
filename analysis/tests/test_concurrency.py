"""Explorer indexing jobs running at the same time (PostgreSQL: real row locks).

Workers may index overlapping games at once (a finish's job and the hourly catch-up):
each game is counted once, and jobs that update the same totals never deadlock; with
positions counted by period from 2 games of a kind, jobs crossing that mark at once
neither miss nor double a game (each holds the position row's lock).
"""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection, connections

from analysis import explorer
from analysis.models import ExplorerEntry, ExplorerGame, ExplorerPosition
from analysis.tests.test_explorer import _brute_force, _positions, _random_game
from engine import Position

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def on_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("concurrent jobs are tested against PostgreSQL (CI); SQLite serialises writers")


@pytest.mark.parametrize("dated_from", [explorer.DATED_FROM, 2])
def test_overlapping_jobs_at_once_count_each_game_once(
    on_postgresql, api, make_player, monkeypatch, dated_from
) -> None:
    monkeypatch.setattr(explorer, "DATED_FROM", dated_from)
    rng = random.Random(23)
    white, black = make_player("ann").user, make_player("ben").user
    games = [_random_game(rng, white, black) for _ in range(24)]
    ids = [game.pk for game in games]
    batches = [ids, list(reversed(ids)), ids[::2], ids[5:], ids[:12], ids[7:19]]
    barrier = threading.Barrier(len(batches))
    counts: list[int] = []
    failures: list[BaseException] = []

    def run(batch: list[int]) -> None:
        try:
            barrier.wait()
            counts.append(explorer.index_games(batch))
        except BaseException as exc:  # noqa: BLE001  (reported by the test below)
            failures.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(batch,)) for batch in batches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    assert sum(counts) == len(ids)  # each game indexed by exactly one of the jobs
    assert ExplorerGame.objects.count() == len(ids)
    assert ExplorerEntry.objects.values("game_id").distinct().count() == len(ids)
    since = min(game.finished for game in games).date().isoformat()  # all: the periods' sums
    for text in [str(Position.standard()), *_positions(games, rng, 10)]:
        assert api.get("/api/v1/explorer", {"position": text}).json() == _brute_force(games, text)
        dated = api.get("/api/v1/explorer", {"position": text, "since": since}).json()
        assert dated == _brute_force(games, text)
    if dated_from == 2:
        assert ExplorerPosition.objects.filter(dated=True).count() > 5
