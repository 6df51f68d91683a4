"""Timing of the archive export and of the archive and game pages (not a test).

Run from the repository root:  .venv/bin/python bench/web.py [--games 100000]

It fills its own database (SQLite file var/bench-web.sqlite3, or BENCH_DATABASE_URL,
e.g. postgres://postgres@127.0.0.1/adaptoid_bench) with finished games made of
real engine play (a few hundred distinct games, copied), then measures:

* export rate (games/s) and Python peak memory (tracemalloc) of .agn, .ndjson and
  .zip for the first 10,000 games and for all of them: the memory must not grow;
* server time (in-process test client, median of 15) of the archive page (first
  page, filters, the last page), a game page, the home page and a player page,
  with all games stored.

Targets (issue #4): export >= 5,000 games/s with flat memory; pages < 100 ms.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--games", type=int, default=100_000)
parser.add_argument("--small", type=int, default=10_000)
parser.add_argument("--keep", action="store_true", help="reuse the database if it is full")
args = parser.parse_args()

os.environ["DATABASE_URL"] = os.environ.get(
    "BENCH_DATABASE_URL", f"sqlite:///{ROOT / 'var' / 'bench-web.sqlite3'}"
)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Test mode: no HTTPS redirect, plain static storage, a dev secret; and DEBUG off, so
# Django does not keep a log of every query (which would grow with the export).
os.environ["ADAPTOID_TESTING"] = "1"
os.environ["DEBUG"] = "0"

import django

django.setup()

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone

from archive import services as archive
from engine import Position
from games.models import Game
from games.models import Turn as TurnRow

User = get_user_model()
EXPORT_TARGET = 5_000.0
PAGE_TARGET_MS = 100.0


def random_games(count: int, rng: random.Random) -> list[tuple[list[str], str, str, str]]:
    """(turns, final position, result, termination) of `count` finished random games."""
    out = []
    while len(out) < count:
        pos = Position.standard()
        turns = []
        while pos.outcome() is None and len(turns) < 80:
            turn = pos.random_turn(rng)
            pos.push(turn)
            turns.append(str(turn))
        outcome = pos.outcome()
        if outcome is None:
            out.append((turns, str(pos), "1-0", "resignation"))
        else:
            out.append((turns, str(pos), outcome.result(), outcome.termination.value))
    return out


def fill(total: int) -> None:
    if args.keep and Game.objects.count() >= total:
        print(f"reusing {Game.objects.count()} games")
        return
    print(f"filling {connection.settings_dict['NAME']} with {total} games…", flush=True)
    started = time.perf_counter()
    TurnRow.objects.all().delete()
    Game.objects.all().delete()
    rng = random.Random(4)
    players = []
    for i in range(200):
        user, _ = User.objects.get_or_create(username=f"bench{i:03d}")
        players.append(user)
    templates = random_games(300, rng)
    start = Position.standard().to_string()
    base = timezone.now() - datetime.timedelta(days=total // 100 + 1)
    batch = 2000
    for first in range(0, total, batch):
        with transaction.atomic():
            games = []
            chosen = []
            for n in range(first, min(total, first + batch)):
                turns, final, result, termination = templates[n % len(templates)]
                white, black = rng.sample(players, 2)
                when = base + datetime.timedelta(minutes=n)
                games.append(
                    Game(
                        white=white, black=black, start_position=start, position=final,
                        status=Game.Status.FINISHED, result=result, termination=termination,
                        ply=len(turns), finished=when, deadline=None,
                    )
                )  # fmt: skip
                chosen.append((turns, white, black))
            Game.objects.bulk_create(games, batch_size=1000)
            rows = []
            for game, (turns, white, black) in zip(games, chosen, strict=True):
                for ply, text in enumerate(turns, 1):
                    rows.append(
                        TurnRow(game=game, ply=ply, text=text, player=white if ply % 2 else black)
                    )
            TurnRow.objects.bulk_create(rows, batch_size=5000)
        print(f"  {min(total, first + batch)} games", end="\r", flush=True)
    print(f"filled in {time.perf_counter() - started:.0f} s" + " " * 20)


def bench_export(fmt: str, limit: int) -> tuple[float, float]:
    """(games/s, Python peak bytes): one timed pass, then one pass under tracemalloc."""
    ids = Game.objects.filter(status=Game.Status.FINISHED).order_by("id")
    last = ids.values_list("id", flat=True)[limit - 1]
    games = archive.archive_queryset({"sort": "id"}).filter(id__lte=last)

    def run() -> int:
        chunks, _type, _name = archive.export(games, fmt)
        return sum(len(chunk) for chunk in chunks)

    started = time.perf_counter()
    size = run()
    elapsed = time.perf_counter() - started
    tracemalloc.start()
    run()
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rate = limit / elapsed
    print(
        f"  {fmt:6} {limit:>7} games: {elapsed:6.2f} s, {rate:8.0f} games/s, "
        f"{size / 1e6:7.1f} MB out, peak {peak / 1e6:6.1f} MB",
        flush=True,
    )
    return rate, peak


def bench_page(client: Client, url: str) -> float:
    client.get(url)  # warm caches
    times = []
    for _ in range(15):
        started = time.perf_counter()
        answer = client.get(url)
        times.append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 200, (url, answer.status_code)
    median = statistics.median(times)
    print(f"  {url:45} median {median:6.1f} ms (max {max(times):6.1f})", flush=True)
    return median


def main() -> int:
    call_command("migrate", verbosity=0)
    fill(args.games)
    total = Game.objects.count()
    ok = True
    print(f"export ({total} games stored):")
    for fmt in ("agn", "ndjson", "zip"):
        small_rate, small_peak = bench_export(fmt, min(args.small, total))
        big_rate, big_peak = bench_export(fmt, total)
        grows = big_peak > small_peak * 1.5 + 1e6
        slow = min(small_rate, big_rate) < EXPORT_TARGET
        if grows or slow:
            ok = False
            print(f"  !! {fmt}: {'memory grows' if grows else ''} {'too slow' if slow else ''}")
    print("pages:")
    client = Client()
    game = Game.objects.order_by("-ply").first()
    player = User.objects.get(username="bench007").username
    for url in (
        "/archive/",
        f"/archive/?player={player}",
        "/archive/?result=0-1&sort=-ply",
        f"/archive/?page={total // 50 - 1}",
        f"/games/{game.pk}/",
        f"/games/{game.pk}/?ply=5",
        "/",
        f"/players/{player}/",
    ):
        if bench_page(client, url) > PAGE_TARGET_MS:
            ok = False
            print("  !! over the target")
    print("all targets met" if ok else "SOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
