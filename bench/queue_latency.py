"""A person's bot reply time while bot matches fill the workers (issue #14.4; not a test).

Run from the repository root with PostgreSQL and Redis running (as for CI):

    .venv/bin/python bench/queue_latency.py --seconds 30

It creates (drops and recreates) its own PostgreSQL database (``--database-url``,
default ``adaptoid_bench_queues``) and uses Redis database 14 (``--redis-url``; the
queues there are purged), migrates, creates the built-in bots and a few players, then
for each layout of Celery workers:

* ``split`` — the shipped set-up: a worker reads ``matches`` (``--match-processes``)
  and another reads ``interactive`` (``--interactive-processes``);
* ``single`` — the old set-up: every task on one queue (``bench/celery_one_queue.py``),
  one worker with as many processes in all;

starts 9 bot matches (3 users × the 3 each may run; the search bots think up to 1 s a
turn, ``--parallel-games`` games each at once), waits ``--warmup`` seconds while their
moves queue up, and then, for ``--seconds``, has another player challenge the random bot and play
against it: the time until the bot accepts, and until it replies to each turn.  Prints
p50 / p90 / max of both per layout, and the tasks waiting when each probe began.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/adaptoid_bench_queues"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--seconds", type=float, default=30.0, help="probing time per layout")
    parser.add_argument("--layouts", default="split,single")
    parser.add_argument("--match-processes", type=int, default=2)
    parser.add_argument("--interactive-processes", type=int, default=1)
    parser.add_argument(
        "--parallel-games",
        type=int,
        default=4,
        help="BOT_MATCH_PARALLEL_GAMES: games of each match at once (4 in production)",
    )
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before probing")
    return parser.parse_args()


def recreate_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    args = parse_args()
    env = dict(os.environ)
    env.update(
        DATABASE_URL=args.database_url,
        REDIS_URL=args.redis_url,
        DEBUG="1",  # a development SECRET_KEY is allowed; not the test settings' queues
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="config.settings",
        BOT_MATCH_PARALLEL_GAMES=str(args.parallel_games),
    )
    env.pop("ADAPTOID_TESTING", None)
    os.environ.update(env)
    recreate_database(args.database_url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    import django

    django.setup()
    from django.conf import settings

    from config.celery import app

    assert not settings.TESTING and settings.CELERY_TASK_ROUTES["bots.tasks.bot_move"]["queue"] == (
        "interactive"
    )
    print(
        f"database {args.database_url}, broker {args.redis_url}, probing {args.seconds:.0f} s, "
        f"9 matches x {args.parallel_games} games at once"
    )
    results = {}
    for layout in args.layouts.split(","):
        results[layout] = run_layout(layout, args, env, app)
    print()
    print(
        f"{'layout':8} {'probes':>6} {'accept p50/p90/max (s)':>24} {'reply p50/p90/max (s)':>24} {'tasks waiting':>14}"
    )
    for layout, (accepts, replies, waiting) in results.items():
        print(
            f"{layout:8} {len(replies):6d} "
            f"{percentile(accepts, 0.5):7.2f} {percentile(accepts, 0.9):7.2f} {max(accepts):7.2f}  "
            f"{percentile(replies, 0.5):7.2f} {percentile(replies, 0.9):7.2f} {max(replies):7.2f}  "
            f"{statistics.median(waiting):8.0f} (median)"
        )
    return 0


def purge(app: object, names: list[str]) -> None:
    from kombu import Queue

    with app.connection_for_write() as conn:  # type: ignore[attr-defined]
        for name in names:
            Queue(name)(conn.default_channel).purge()


def waiting(app: object, name: str) -> int:
    from amqp.exceptions import ChannelError
    from kombu import Queue

    with app.connection_for_write() as conn:  # type: ignore[attr-defined]
        try:
            return int(Queue(name)(conn.default_channel).queue_declare(passive=True).message_count)
        except ChannelError:  # never declared: nothing was sent there
            return 0


def start_worker(
    queues: str, processes: int, env: dict[str, str], app: str = "config"
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            app,
            "worker",
            "--loglevel=WARNING",
            "--queues",
            queues,
            f"--concurrency={processes}",
            "--without-gossip",
            "--without-mingle",
            "--hostname",
            f"bench-{queues.split(',')[0]}-{time.time_ns()}@%h",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )


def run_layout(
    layout: str, args: argparse.Namespace, env: dict[str, str], app: object
) -> tuple[list[float], list[float], list[int]]:
    from accounts import services as accounts
    from bots import services as bots
    from bots.models import BotMatch
    from games import services
    from games.models import Challenge, Game

    queues = list(settings_queues())
    purge(app, queues)
    if layout == "split":
        workers = [
            start_worker("matches", args.match_processes, env),
            start_worker("interactive", args.interactive_processes, env),
            start_worker("tournaments,email,imports,analysis,maintenance", 1, env),
        ]
    else:
        total = args.match_processes + args.interactive_processes
        workers = [start_worker(",".join(queues), total, env, app="bench.celery_one_queue")]
        routes = one_queue(app, {})
    try:
        bots.ensure_builtin_bots()
        stamp = time.time_ns()
        matches = []
        for number in range(3):
            user = accounts.register_account(
                username=f"busy{number}x{stamp}", password="bench-password-4711-x"
            )
            for _ in range(3):
                matches.append(
                    bots.create_bot_match(
                        creator=user,
                        white="search-bot",
                        black="search2-bot",
                        games=100,
                        seconds_per_turn=1.0,
                    )
                )
        person = accounts.register_account(
            username=f"probe{stamp}", password="bench-password-4711-x"
        )
        time.sleep(args.warmup)  # the matches' moves queue up
        accepts: list[float] = []
        replies: list[float] = []
        backlog: list[int] = []
        deadline = time.monotonic() + args.seconds
        while time.monotonic() < deadline:
            backlog.append(sum(waiting(app, name) for name in queues))
            sent = time.monotonic()
            challenge = services.create_challenge(
                creator=person, opponent="random-bot", color="white"
            )
            game_id = None
            while game_id is None:
                game_id = (
                    Challenge.objects.filter(pk=challenge.pk)
                    .values_list("game_id", flat=True)
                    .first()
                )
                time.sleep(0.05)
            accepts.append(time.monotonic() - sent)
            game = Game.objects.get(pk=game_id)
            for ply, text in ((1, "D2L"),):
                sent = time.monotonic()
                services.play_turn(game=game, player=person, text=text, ply=ply)
                while (
                    Game.objects.filter(pk=game_id).values_list("ply", flat=True).first() < ply + 1
                ):
                    time.sleep(0.05)
                replies.append(time.monotonic() - sent)
            services.resign(game=Game.objects.get(pk=game_id), player=person)
        print(
            f"{layout}: {len(replies)} probes; accept p50 {percentile(accepts, 0.5):.2f} s, "
            f"max {max(accepts):.2f} s; reply p50 {percentile(replies, 0.5):.2f} s, "
            f"max {max(replies):.2f} s; tasks waiting (median) {statistics.median(backlog):.0f}"
        )
        for match in matches:
            bots.stop_bot_match(match=match, user=match.created_by)
        BotMatch.objects.update(status=BotMatch.Status.FINISHED)
        return accepts, replies, backlog
    finally:
        if layout != "split":
            one_queue(app, routes)
        for worker in workers:
            os.killpg(worker.pid, 9)
            worker.wait()
        purge(app, queues)


def one_queue(app: Any, routes: Any) -> Any:
    """Set the routes of this process's Celery app; returns the previous ones."""
    previous = app.conf.task_routes
    app.conf.task_routes = routes
    app.amqp.flush_routes()
    app.amqp.__dict__.pop("router", None)  # a cached_property: rebuilt from the routes
    return previous


def settings_queues() -> list[str]:
    from django.conf import settings

    return list(settings.TASK_QUEUE_NAMES.values())


if __name__ == "__main__":
    sys.exit(main())
