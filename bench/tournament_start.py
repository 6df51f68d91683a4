"""The answer time of ``POST /api/v1/tournaments/{id}/start`` for a big Swiss (issue #28.9;
not a test).

Run from the repository root with PostgreSQL and Redis running (as for CI)::

    .venv/bin/python bench/tournament_start.py --players 1000

It creates (drops and recreates) its own PostgreSQL database (``--database-url``,
default ``adaptoid_bench_start``) and uses Redis database 14 (``--redis-url``; its
``tournaments`` queue is purged), migrates, and for each of ``--runs`` Swiss
tournaments of ``--players`` players with e-mail addresses (so that starting one
notifies every player, e-mails included):

* times the organiser's ``POST …/start`` through the Django test client in this
  process (the full middleware and API stack; no network): target < 1 s;
* then starts a real Celery worker on the ``tournaments`` and ``email`` queues
  (``--no-worker`` skips it) and times until round 1 is paired (information: the
  job's time is bounded by the pairing tasks' time limit, not by a target).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from api_load import recreate_database  # bench/ is not a package: a sibling module

ANSWER_TARGET = 1.0  # seconds


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/adaptoid_bench_start"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--runs", type=int, default=3, help="tournaments started, one by one")
    parser.add_argument(
        "--no-worker", action="store_true", help="only the answer time; round 1 is not paired"
    )
    return parser.parse_args()


def purge(names: list[str]) -> None:
    from kombu import Queue

    from config.celery import app

    with app.connection_for_write() as conn:
        for name in names:
            Queue(name)(conn.default_channel).purge()


def start_worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker",
        "--loglevel=WARNING", "--queues", "tournaments,email", "--concurrency=1",
        "--without-gossip", "--without-mingle",
        "--hostname", f"bench-start-{time.time_ns()}@%h",
    ]  # fmt: skip
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )


def make_players(count: int, tag: str) -> list[object]:
    """``count`` accounts with e-mail addresses and spread ratings, written in bulk."""
    from django.contrib.auth import get_user_model

    from accounts.models import Profile

    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"p{tag}x{n}", email=f"p{tag}x{n}@example.org", password="!")
        for n in range(count)
    )
    Profile.objects.bulk_create(
        Profile(user=user, rating=1000.0 + (n * 7919) % 1500) for n, user in enumerate(users)
    )
    return users


def make_swiss(organiser: object, players: list[object], rounds: int, tag: str) -> int:
    from tournaments import services
    from tournaments.models import Participant

    tournament = services.create_tournament(
        organiser=organiser, name=f"Bench start {tag}", format="swiss", rounds=rounds
    )
    Participant.objects.bulk_create(Participant(tournament=tournament, user=p) for p in players)
    return tournament.pk


def main() -> int:
    args = parse_args()
    env = dict(os.environ)
    env.update(
        DATABASE_URL=args.database_url,
        REDIS_URL=args.redis_url,
        DEBUG="1",  # a development SECRET_KEY is allowed; not the test settings' queues
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="config.settings",
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
    )
    env.pop("ADAPTOID_TESTING", None)
    os.environ.update(env)
    recreate_database(args.database_url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    from accounts.services import create_token
    from tournaments.models import Round, Tournament

    purge(["tournaments", "email"])
    organiser = get_user_model().objects.create_user(
        username="bench-organiser", password="bench-password-4711-x", is_staff=True
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {create_token(user=organiser)}")
    worker = None if args.no_worker else start_worker(env)
    print(
        f"database {args.database_url}, broker {args.redis_url}: {args.runs} Swiss of "
        f"{args.players} players, {args.rounds} rounds"
    )
    print(f"{'run':>3} {'answer (s)':>10} {'target':>7} {'status':>9} {'round 1 paired (s)':>19}")
    answers = []
    try:
        for run in range(1, args.runs + 1):
            tournament_id = make_swiss(
                organiser, make_players(args.players, str(run)), args.rounds, str(run)
            )
            began = time.perf_counter()
            response = client.post(f"/api/v1/tournaments/{tournament_id}/start")
            answer = time.perf_counter() - began
            answers.append(answer)
            assert response.status_code == 202, response.content[:500]
            paired = "-"
            if worker is not None:
                while not Round.objects.filter(tournament_id=tournament_id, number=1).exists():
                    failed = Tournament.objects.filter(pk=tournament_id).exclude(start_error="")
                    if worker.poll() is not None or failed.exists():
                        raise SystemExit("the worker died or the start failed")
                    time.sleep(0.2)
                paired = f"{time.perf_counter() - began:.1f}"
            print(
                f"{run:3d} {answer:10.3f} {'< ' + str(ANSWER_TARGET):>7} "
                f"{response.json()['status']:>9} {paired:>19}"
            )
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(30)
        else:
            purge(["tournaments", "email"])  # start jobs nobody will run
    worst = max(answers)
    verdict = "met" if worst < ANSWER_TARGET else "MISSED"
    print(f"slowest answer {worst:.3f} s, target < {ANSWER_TARGET} s: {verdict}")
    return 0 if worst < ANSWER_TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
