"""Profile one turn submission end to end, in-process (not a test).

Run from the repository root (PostgreSQL and Redis running):

    .venv/bin/python bench/turn_profile.py --queries --time 300 --cprofile 300

Production settings (as bench/api_load.py: DEBUG off, PostgreSQL, Redis cache and
broker) on its own database (``adaptoid_turn_profile``, dropped and recreated;
``--database-url``) and Redis database 12 as bench/api_load.py (``--redis-url``; the
cache in 13).  Two players, a stock of games; Django's test client posts random legal
turns to ``POST /api/v1/games/<id>/turns`` through the whole middleware, token and
throttle stack, then:

* ``--queries``: the SQL of two turns;
* ``--time N``: wall and CPU milliseconds per turn over N turns (client side included);
* ``--cprofile N``: cProfile over N turns, in CPU time (``time.process_time``), top
  functions by cumulative time; the stats go to ``var/turn_profile.cprof``;
* ``--cprofile-final N``: cProfile of the turns that end their game among N turns;
* ``--pyinstrument N``: the same with pyinstrument (``pip install pyinstrument``, a
  profiling tool, not a dependency), text and ``var/turn_profile.html``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PASSWORD = "load-test-password-4711"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/adaptoid_turn_profile"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/12")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--queries", action="store_true")
    parser.add_argument(
        "--sql-width", type=int, default=160, help="characters of each statement --queries shows"
    )
    parser.add_argument("--time", type=int, default=0, metavar="N")
    parser.add_argument("--cprofile", type=int, default=0, metavar="N")
    parser.add_argument("--pyinstrument", type=int, default=0, metavar="N")
    parser.add_argument(
        "--cprofile-final",
        type=int,
        default=0,
        metavar="N",
        help="over N turns, cProfile only those that end their game",
    )
    return parser.parse_args()


def setup(args: argparse.Namespace) -> tuple[list[str], list[int]]:
    sys.path.insert(0, str(ROOT / "bench"))
    from api_load import production_env, recreate_database

    for key in ("ADAPTOID_TESTING", "DEBUG", "DATABASE_NAME"):
        os.environ.pop(key, None)
    os.environ.update(production_env(args.database_url, args.redis_url, "testserver"))
    recreate_database(args.database_url)
    import django

    django.setup()
    from django.core.management import call_command

    from accounts import services as account_services
    from games import services

    call_command("migrate", verbosity=0)
    names = ("profw", "profb")
    users = [account_services.register_account(username=n, password=PASSWORD) for n in names]
    tokens = [account_services.create_token(user=user) for user in users]
    games = [
        services.start_game(white=users[0], black=users[1], rated=False).pk
        for _ in range(args.games)
    ]
    return tokens, games


def turn_player(
    tokens: list[str], games: list[int], final_profile: Any = None
) -> Callable[[], None]:
    """A function that plays the next random legal turn (a new game when one ends)."""
    from django.test import Client

    from engine import Position

    client = Client()
    rng = random.Random(1)
    waiting = list(games)
    state: dict[str, Any] = {"game": None}

    def fetch(game_id: int) -> dict[str, Any]:
        answer = client.get(f"/api/v1/games/{game_id}", HTTP_AUTHORIZATION=f"Bearer {tokens[0]}")
        return json.loads(answer.content)

    def play() -> None:
        game = state["game"]
        while game is None or game["status"] != "active":
            if not waiting:
                raise SystemExit("out of games: raise --games")
            game = state["game"] = fetch(waiting.pop(0))
        position = Position.from_string(game["position"])
        turn = position.random_turn(rng)
        text = str(turn)
        position.push(turn)
        ends = position.outcome() is not None  # (a repetition is not seen from here)
        token = tokens[0] if game["to_move"] == "white" else tokens[1]
        profiling = final_profile is not None and ends
        if profiling:
            final_profile.enable()
        started = time.perf_counter(), time.process_time()
        answer = client.post(
            f"/api/v1/games/{game['id']}/turns",
            json.dumps({"ply": game["ply"] + 1, "turn": text}).encode(),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )
        took = time.perf_counter() - started[0], time.process_time() - started[1]
        if profiling:
            final_profile.disable()
        assert answer.status_code == 201, answer.content
        state["game"] = json.loads(answer.content)
        kind = "final" if state["game"]["status"] != "active" else "other"
        spent[kind].append(took)

    spent: dict[str, list[tuple[float, float]]] = {"final": [], "other": []}
    play.spent = spent  # type: ignore[attr-defined]

    return play


def main() -> None:
    args = parse_args()
    tokens, games = setup(args)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    play = turn_player(tokens, games)
    for _ in range(10):  # warm up: imports, connections, the "last used" write
        play()
    if args.queries:
        for _ in range(2):
            with CaptureQueriesContext(connection) as queries:
                play()
            print(f"--- one turn: {len(queries)} queries")
            for query in queries:
                print("  ", query["sql"][: args.sql_width])
    if args.time:
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(args.time):
            play()
        print(
            f"{args.time} turns: {(time.perf_counter() - wall) / args.time * 1000:.2f} ms wall, "
            f"{(time.process_time() - cpu) / args.time * 1000:.2f} ms CPU per turn"
        )
        for kind, label in (("other", "game goes on"), ("final", "game ends")):
            timings = play.spent[kind][-args.time :]  # type: ignore[attr-defined]
            if timings:
                print(
                    f"   {label}: {len(timings)} turns, server side "
                    f"{sum(t[0] for t in timings) / len(timings) * 1000:.2f} ms wall, "
                    f"{sum(t[1] for t in timings) / len(timings) * 1000:.2f} ms CPU"
                )
    if args.cprofile:
        import cProfile
        import pstats

        profile = cProfile.Profile(time.process_time)
        profile.enable()
        for _ in range(args.cprofile):
            play()
        profile.disable()
        (ROOT / "var").mkdir(exist_ok=True)
        profile.dump_stats(ROOT / "var" / "turn_profile.cprof")
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
    if args.cprofile_final:
        import cProfile
        import pstats

        profile = cProfile.Profile(time.process_time)
        play_profiled = turn_player(tokens, games, final_profile=profile)
        for _ in range(args.cprofile_final):
            play_profiled()
        (ROOT / "var").mkdir(exist_ok=True)
        profile.dump_stats(ROOT / "var" / "turn_profile_final.cprof")
        pstats.Stats(profile).sort_stats("cumulative").print_stats(60)
    if args.pyinstrument:
        try:
            from pyinstrument import Profiler
        except ImportError:
            raise SystemExit("pip install pyinstrument (a profiling tool, not a dependency)")
        profiler = Profiler(interval=0.0005)
        profiler.start()
        for _ in range(args.pyinstrument):
            play()
        profiler.stop()
        print(profiler.output_text(unicode=True, color=False))
        (ROOT / "var").mkdir(exist_ok=True)
        (ROOT / "var" / "turn_profile.html").write_text(profiler.output_html())
    connection.close()


if __name__ == "__main__":
    main()
