"""Speed of the opening explorer at scale, and of its incremental indexing (not a test).

Run from the repository root (PostgreSQL, the figures that count)::

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/adaptoid_analysis \\
        .venv/bin/python bench/explorer.py --games 100000

(without BENCH_DATABASE_URL: the SQLite file var/bench-explorer.sqlite3).  It empties the
games of that database, then:

1. stores ``--games`` finished games (``--distinct`` games of seeded engine play, copied
   with other players, dates, results and rated flags; openings chosen with a bias,
   so the first plies repeat as in real archives) and indexes them in batches with
   the indexing job's own code (analysis.explorer.index_records, the claim included);
2. plays ``--incremental`` more games to the end through games.services (turn rows and
   all) and times ``analysis.explorer.index_games([id])`` — the job a finished game
   queues — on each: the index grows by one game, nothing is rescanned;
3. times ``--queries`` explorer queries (``analysis.explorer.explore``, what
   ``GET /api/v1/explorer`` runs) on positions the games reached — the start, popular
   and rare ones — unfiltered, and filtered by a player, by ``rated`` and by a date.

Prints the medians and 95th percentiles in milliseconds.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--games", type=int, default=100_000)
parser.add_argument("--distinct", type=int, default=3000)
parser.add_argument("--incremental", type=int, default=100)
parser.add_argument("--queries", type=int, default=300)
parser.add_argument("--keep", action="store_true", help="reuse the stored games if enough")
args = parser.parse_args()

os.environ["DATABASE_URL"] = os.environ.get(
    "BENCH_DATABASE_URL", f"sqlite:///{ROOT / 'var' / 'bench-explorer.sqlite3'}"
)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["ADAPTOID_TESTING"] = "1"
os.environ["DEBUG"] = "0"  # no log of every query

import django

django.setup()

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone

from analysis import explorer
from analysis.models import ExplorerEntry, ExplorerGame, ExplorerPosition, ExplorerTurn
from engine import Position
from games import services
from games.models import Game
from games.models import Turn as TurnRow

User = get_user_model()
RESULTS = ("1-0", "0-1", "1/2-1/2")


def biased_game(rng: random.Random) -> list[str]:
    """Engine play: the first ten plies favour the first legal turns (popular openings)."""
    position = Position.standard()
    turns: list[str] = []
    length = rng.randint(6, 40)
    while position.outcome() is None and len(turns) < length:
        if len(turns) < 10:
            legal = sorted(str(turn) for turn in position.legal_turns)
            index = min(int(rng.expovariate(0.7)), len(legal) - 1)
            text = legal[index]
        else:
            text = str(position.random_turn(rng))
        position.push_text(text)
        turns.append(text)
    return turns


def make_pool() -> list[list[str]]:
    """The distinct games the stored ones copy (the same on every run)."""
    rng = random.Random(17)
    return [biased_game(rng) for _ in range(args.distinct)]


def fill(total: int, pool: list[list[str]]) -> None:
    if args.keep and ExplorerGame.objects.count() >= total:
        return
    print(f"storing and indexing {total:,} games…", flush=True)
    if connection.vendor == "postgresql":  # (the ORM's cascade would list every id)
        with connection.cursor() as cursor:
            cursor.execute(f"TRUNCATE {Game._meta.db_table}, {ExplorerPosition._meta.db_table}, "
                           f"{ExplorerTurn._meta.db_table} CASCADE")  # fmt: skip
    else:
        for model in (ExplorerEntry, ExplorerTurn, ExplorerPosition, ExplorerGame, TurnRow):
            model.objects.all().delete()
        Game.objects.all().delete()
    rng = random.Random(17)
    players = [User.objects.get_or_create(username=f"bench{i:03d}")[0] for i in range(200)]
    start = Position.standard().to_string()
    base = timezone.now() - datetime.timedelta(days=total // 100 + 1)
    started = time.perf_counter()
    for first in range(0, total, explorer.BATCH):
        with transaction.atomic():
            games, turns = [], []
            for n in range(first, min(total, first + explorer.BATCH)):
                white, black = rng.sample(players, 2)
                games.append(
                    Game(
                        white=white, black=black, start_position=start, position=start,
                        status=Game.Status.FINISHED, result=rng.choice(RESULTS),
                        termination="resignation", rated=rng.random() < 0.7,
                        ply=0, finished=base + datetime.timedelta(minutes=n), deadline=None,
                    )
                )  # fmt: skip
                turns.append(pool[n % len(pool)])
            Game.objects.bulk_create(games)
            ExplorerGame.objects.bulk_create([ExplorerGame(game_id=game.pk) for game in games])
            explorer.index_records(
                [
                    explorer.IndexedGame(
                        game.pk, game.white_id, game.black_id, game.result, game.rated,
                        False, game.finished, start, texts,
                    )
                    for game, texts in zip(games, turns, strict=True)
                ]
            )  # fmt: skip
        if first and first % 20_000 == 0:
            rate = first / (time.perf_counter() - started)
            print(f"  {first:,} games ({rate:,.0f} games/s)", flush=True)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(ordered):7.2f} ms   p95 {p95:7.2f} ms"


def incremental(count: int) -> list[float]:
    """Real games played to the end, each then indexed by the job's function alone."""
    rng = random.Random(5)
    white, black = User.objects.filter(username__in=["bench000", "bench001"]).order_by("username")
    timings = []
    for _ in range(count):
        game = services.start_game(white=white, black=black)
        position = Position.standard()
        for ply, text in enumerate(biased_game(rng), 1):
            mover = white if position.side_to_move.letter == "w" else black
            game, _created = services.play_turn(game=game, player=mover, text=text, ply=ply)
            position.push_text(text)
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.FINISHED:
            services.resign(game=game, player=white)
        began = time.perf_counter()
        assert explorer.index_games([game.pk]) == 1
        timings.append((time.perf_counter() - began) * 1000)
    return timings


def query_positions(count: int, pool: list[list[str]]) -> list[str]:
    """The start, and positions at random plies of random stored lines (popular and rare)."""
    rng = random.Random(9)
    texts = [str(Position.standard())]
    while len(texts) < count:
        line = rng.choice(pool)
        position = Position.standard()
        for text in line[: rng.randint(1, len(line))]:
            position.push_text(text)
        texts.append(str(position))
    return texts


def timed(texts: list[str], filters: explorer.ExplorerFilters | None) -> list[float]:
    timings = []
    for text in texts:
        position = Position.from_string(text)
        began = time.perf_counter()
        explorer.explore(position, filters)
        timings.append((time.perf_counter() - began) * 1000)
    return timings


def main() -> None:
    call_command("migrate", verbosity=0)
    pool = make_pool()
    fill(args.games, pool)
    games = ExplorerGame.objects.count()
    entries = ExplorerEntry.objects.count()
    print(f"{connection.vendor}: {games:,} indexed games, {entries:,} entries, "
          f"{ExplorerPosition.objects.values('key').distinct().count():,} positions")  # fmt: skip
    print(f"incremental index job per finished game:  {percentiles(incremental(args.incremental))}")
    texts = query_positions(args.queries, pool)
    start = explorer.explore(Position.standard())
    print(f"start position: {start['games']:,} games, {len(start['turns'])} turns")
    timed(texts[:20], None)  # warm the caches
    print(f"explorer, unfiltered ({len(texts)} positions):  {percentiles(timed(texts, None))}")
    player = User.objects.get(username="bench007").pk
    by_player = explorer.ExplorerFilters(player_id=player)
    print(f"explorer, player=…:                 {percentiles(timed(texts, by_player))}")
    rated = explorer.ExplorerFilters(rated=True)
    print(f"explorer, rated=true (totals):       {percentiles(timed(texts, rated))}")
    # A date filter groups the entries: cheap on rare positions, all games at the start.
    since = explorer.ExplorerFilters(since=(timezone.now() - datetime.timedelta(days=30)).date())
    deep = texts[1:]
    print(f"explorer, since=… (not the start):   {percentiles(timed(deep, since))}")
    print(f"explorer, since=… at the start:      {percentiles(timed(texts[:1] * 5, since))}")


if __name__ == "__main__":
    main()
