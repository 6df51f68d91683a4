"""Speed of the .agn writer and of the archive's .agn export (not a test).

Run from the repository root:  .venv/bin/python bench/archive_export.py [--games 20000]

It fills its own database (SQLite file var/bench-archive.sqlite3, or BENCH_DATABASE_URL)
with finished games of real engine play (a few hundred distinct games, copied; one in
ten from a custom start on a custom board), then measures, best of --repeat runs, by
the wall clock and by CPU time:

* writer: the games' records already in memory (archive/records.py), written as .agn
  text by ``engine.write_game``, the one writer of every .agn download;
* export: ``GET /api/v1/archive?format=agn``'s work without HTTP, database reads
  included (``archive.services.export``), for all the games.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--games", type=int, default=20_000)
parser.add_argument("--repeat", type=int, default=3)
parser.add_argument("--keep", action="store_true", help="reuse the database if it is full")
args = parser.parse_args()

os.environ["DATABASE_URL"] = os.environ.get(
    "BENCH_DATABASE_URL", f"sqlite:///{ROOT / 'var' / 'bench-archive.sqlite3'}"
)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["ADAPTOID_TESTING"] = "1"
os.environ["DEBUG"] = "0"  # no log of every query

import django

django.setup()

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from archive import records, services
from engine import Position, write_game
from games.models import Game
from games.models import Turn as TurnRow

User = get_user_model()
CUSTOM_START = "C3W10,E5B01 w 0-0 A1-4,B1-5,C1-6,D1-7,E2-7"


def random_game(rng: random.Random, start: str) -> tuple[list[str], str, str, str]:
    pos = Position.from_string(start)
    turns: list[str] = []
    while pos.outcome() is None and len(turns) < 80:
        turn = pos.random_turn(rng)
        pos.push(turn)
        turns.append(str(turn))
    outcome = pos.outcome()
    if outcome is None:
        return turns, str(pos), "1-0", "resignation"
    return turns, str(pos), outcome.result(), outcome.termination.value


def fill(total: int) -> None:
    if args.keep and Game.objects.filter(status=Game.Status.FINISHED).count() >= total:
        return
    print(f"filling with {total} games…", flush=True)
    TurnRow.objects.all().delete()
    Game.objects.all().delete()
    rng = random.Random(4)
    players = [User.objects.get_or_create(username=f"bench{i:03d}")[0] for i in range(100)]
    standard = Position.standard().to_string()
    custom = Position.from_string(CUSTOM_START)
    templates = [(standard, random_game(rng, standard)) for _ in range(270)]
    templates += [(CUSTOM_START, random_game(rng, CUSTOM_START)) for _ in range(30)]
    rng.shuffle(templates)
    base = timezone.now() - datetime.timedelta(days=total // 100 + 1)
    for first in range(0, total, 2000):
        with transaction.atomic():
            games, chosen = [], []
            for n in range(first, min(total, first + 2000)):
                start, (turns, final, result, termination) = templates[n % len(templates)]
                white, black = rng.sample(players, 2)
                is_custom = start != standard
                games.append(
                    Game(
                        white=white, black=black, start_position=start, position=final,
                        opening=Game.Opening.CUSTOM if is_custom else Game.Opening.STANDARD,
                        board=str(custom.board) if is_custom else "",
                        status=Game.Status.FINISHED, result=result, termination=termination,
                        ply=len(turns), finished=base + datetime.timedelta(minutes=n),
                        deadline=None,
                    )
                )  # fmt: skip
                chosen.append((turns, white, black))
            Game.objects.bulk_create(games, batch_size=1000)
            TurnRow.objects.bulk_create(
                [
                    TurnRow(game=game, ply=ply, text=text, player=white if ply % 2 else black)
                    for game, (turns, white, black) in zip(games, chosen, strict=True)
                    for ply, text in enumerate(turns, 1)
                ],
                batch_size=5000,
            )


def best_rates(count: int, run) -> tuple[float, float]:
    """Games per second of the fastest of --repeat runs of `run`: by the wall clock, and
    by this process's CPU time (steadier on a machine shared with other work; SQLite
    reads are in this process too)."""
    wall, cpu = [], []
    for _ in range(args.repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        run()
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    return count / min(wall), count / min(cpu)


def main() -> None:
    call_command("migrate", verbosity=0)
    fill(args.games)
    games = services.archive_queryset({"sort": "id"})
    loaded = list(records.iter_games(games))
    count = len(loaded)
    print(f"{count} games, {sum(len(g.turns) for g in loaded) / count:.1f} turns per game")
    built = [game.record() for game in loaded]
    rows = [("writer: engine.write_game", lambda: [write_game(r) for r in built])]

    def export() -> int:
        chunks, _type, _name = services.export(games, "agn")
        return sum(len(chunk) for chunk in chunks)

    rows.append(("export .agn (database reads included)", export))
    print(f"{'games/s':>50} {'(CPU time)':>12}")
    for label, run in rows:
        wall, cpu = best_rates(count, run)
        print(f"{label:40} {wall:>10,.0f} {cpu:>12,.0f}")


if __name__ == "__main__":
    main()
