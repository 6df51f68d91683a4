"""Speed of the opening explorer at scale, and of its incremental indexing (not a test).

Run from the repository root, on a PostgreSQL database of its own (it empties its games)::

    nice -n 10 env BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/adaptoid_explorer_bench \\
        .venv/bin/python bench/explorer.py --games 1000000 --distinct 100000

How the data are made (printed too):

1. ``--players`` users; ``--distinct`` (default: a quarter of ``--games``) distinct
   games played by the engine (seeded by their number): 6–40 plies, the first ten
   biased towards the first legal turns in notation order (each next one about half as
   likely: popular openings), the rest uniformly random legal turns.  Each is stored as
   ``--games`` / ``--distinct`` finished games (ids n, n + distinct, …), each with its
   own players, finishing time, flags and result: a game the engine ended (captures,
   elimination, repetition) keeps that result, the others end by resignation (45 %
   each side) or an agreed draw (10 %).  Players drawn with a skew (at 1,000,000
   games and 5,000 players: 6,852 games for the busiest, 338 for the median one);
   5 % imported (never rated), 65 % of the others rated; finished at evenly spread
   times over ``--days`` days up to now, in id order.  Stored as real rows:
   ``games_game`` (status finished, final position, ply) and one ``games_turn`` per
   ply — the record any game page replays.
2. The explorer's index of those games, built in bulk rather than by the job (which
   would take hours here): the entries are ``analysis.explorer.reached`` of each game
   (the function the indexing job runs), with the game's fields, written by COPY from
   ``--workers`` processes (indexes dropped during the load and rebuilt after); then
   the totals (ExplorerGame, ExplorerPosition, ExplorerTurn) and the periods
   (ExplorerPeriod for every position kind with ``DATED_FROM`` games, marked dated)
   are summed from the entries by SQL, as the sum of the job's increments would be.
   ``--check`` positions' answers are then compared, for every filter, with a
   grouping of their entries (the job's own rows): all must be equal.
3. ``--incremental`` more games played to the end through games.services (turn rows and
   all), each then indexed by ``analysis.explorer.index_games([id])`` (the job a
   finished game queues): the index grows by one game, nothing is rescanned.
4. ``analysis.explorer.explore`` (what ``GET /api/v1/explorer`` runs) timed on
   ``--queries`` positions: the start and positions at random plies of random stored
   games (from popular openings to positions one game reached), with each filter; a
   player filter names a player of the sampled game, date ranges are random.

Prints the medians and 95th percentiles in milliseconds, the build times and the sizes.
"""

from __future__ import annotations

import argparse
import datetime
import io
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--games", type=int, default=100_000)
parser.add_argument("--distinct", type=int, default=0, help="engine games (default: games/4)")
parser.add_argument("--players", type=int, default=5000)
parser.add_argument("--days", type=int, default=3 * 365)
parser.add_argument("--workers", type=int, default=2)
parser.add_argument("--incremental", type=int, default=50)
parser.add_argument("--queries", type=int, default=300)
parser.add_argument("--check", type=int, default=40)
parser.add_argument("--keep", action="store_true", help="reuse the stored games if as many")
args = parser.parse_args()
args.distinct = min(args.games, args.distinct or -(-args.games // 4))

if not os.environ.get("BENCH_DATABASE_URL", "").startswith("postgres"):
    sys.exit("BENCH_DATABASE_URL=postgres://… (a database of its own: the bench empties it)")
DSN = os.environ["BENCH_DATABASE_URL"]
os.environ["DATABASE_URL"] = DSN
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["ADAPTOID_TESTING"] = "1"
os.environ["DEBUG"] = "0"  # no log of every query

import django

django.setup()

import psycopg
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from analysis import explorer
from analysis.models import ExplorerGame
from engine import Position
from games import services
from games.models import Game
from games.models import Turn as TurnRow

User = get_user_model()
START = str(Position.standard())
CHUNK = 5000
TABLES = (
    "games_game",
    "games_turn",
    *(f"analysis_explorer{name}" for name in ("entry", "position", "turn", "period", "game")),
)
INDEX_FILE = ROOT / "var" / "bench-explorer-indexes.sql"


OPENINGS: dict[tuple[str, ...], list[str]] = {}  # the first plies' legal turns, sorted


def biased_game(rng: random.Random) -> tuple[list[str], Position]:
    """Engine play: the first ten plies favour the first legal turns (popular openings)."""
    position = Position.standard()
    turns: list[str] = []
    length = rng.randint(6, 40)
    while position.outcome() is None and len(turns) < length:
        if len(turns) < 10:
            line = tuple(turns)
            legal = OPENINGS.get(line) or sorted(str(turn) for turn in position.legal_turns)
            if len(OPENINGS) < 300_000:  # (a worker's memory)
                OPENINGS[line] = legal
            text = legal[min(int(rng.expovariate(0.7)), len(legal) - 1)]
        else:
            text = str(position.random_turn(rng))
        position.push_text(text)
        turns.append(text)
    return turns, position


# --- Filling ------------------------------------------------------------------------

GAME_COLUMNS = (
    "id, opening, start_position, board, status, result, termination, rated, imported, "
    "days_per_turn, position, ply, created, updated, finished, white_id, black_id, "
    "clock_increment, clock_kind, clock_time_zone, vacation_allowed, weekend_pause, "
    "draw_offer, has_conditional_lines"
)
TURN_COLUMNS = "game_id, ply, text, player_id, created, automatic"
ENTRY_COLUMNS = "key, game_id, turn, ply, white_id, black_id, result, rated, imported, finished"
PLAYERS: list[int] = []  # the users' ids (set before the workers fork)
BASE = timezone.now()


def _player(rng: random.Random) -> int:
    return PLAYERS[int(len(PLAYERS) * rng.random() ** 1.5)]


def fill_chunk(first: int) -> tuple[int, int]:
    """Engine games first..first+CHUNK-1 of the distinct ones, each stored as the games
    whose id is that number plus a multiple of --distinct (with their own players, dates,
    flags and, unless the engine ended it, result): games, turns, entries by COPY."""
    span = datetime.timedelta(days=args.days)
    games, turns, entries = io.StringIO(), io.StringIO(), io.StringIO()
    turn_rows = entry_rows = 0
    for line in range(first, min(args.distinct + 1, first + CHUNK)):
        texts, final = biased_game(random.Random(line * 1_000_003 + 17))
        outcome = final.outcome()
        pairs = list(explorer.reached(START, texts).items())
        for game_id in range(line, args.games + 1, args.distinct):
            rng = random.Random(game_id * 7919 + 5)
            if outcome is not None:
                result, termination = outcome.result(), outcome.termination.value
            else:
                draw = rng.random()
                result = "1/2-1/2" if draw < 0.1 else ("1-0" if draw < 0.55 else "0-1")
                termination = "agreement" if draw < 0.1 else "resignation"
            white = _player(rng)
            black = _player(rng)
            while black == white:
                black = _player(rng)
            imported = rng.random() < 0.05
            rated = not imported and rng.random() < 0.65
            finished = (
                BASE
                - span
                + span * (game_id / args.games)
                - datetime.timedelta(seconds=rng.randrange(3600))
            )
            created = finished - datetime.timedelta(hours=rng.randrange(24, 60 * 24))
            when = finished.isoformat()
            games.write(
                f"{game_id}\tstandard\t{START}\t\tfinished\t{result}\t{termination}\t"
                f"{'t' if rated else 'f'}\t{'t' if imported else 'f'}\t3\t{final}\t{len(texts)}\t"
                f"{created.isoformat()}\t{when}\t{when}\t{white}\t{black}\t0\tper_turn\tUTC\tt\tf\t\tf\n"
            )
            step = (finished - created) / (len(texts) + 1)
            for ply, text in enumerate(texts, 1):
                mover = white if ply % 2 else black
                made = (created + step * ply).isoformat()
                turns.write(f"{game_id}\t{ply}\t{text}\t{mover}\t{made}\tf\n")
            turn_rows += len(texts)
            flags = f"{white}\t{black}\t{result}\t{'t' if rated else 'f'}\t{'t' if imported else 'f'}\t{when}"
            for (key, turn), ply in pairs:
                entries.write(f"{key}\t{game_id}\t{turn}\t{ply}\t{flags}\n")
            entry_rows += len(pairs)
    with psycopg.connect(DSN) as db:
        db.execute("SET session_replication_role = replica")  # no FK triggers: ids are ours
        with db.cursor() as cursor:
            for table, columns, data in (
                ("games_game", GAME_COLUMNS, games),
                ("games_turn", TURN_COLUMNS, turns),
                ("analysis_explorerentry", ENTRY_COLUMNS, entries),
            ):
                with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                    copy.write(data.getvalue())
    return turn_rows, entry_rows


def _run(cursor: Any, sql: str, params: Any = None) -> None:
    began = time.perf_counter()
    cursor.execute(sql, params)
    label = " ".join(sql.split())[:70]
    print(f"  {time.perf_counter() - began:7.1f} s  {label}…", flush=True)


def drop_indexes(cursor: Any) -> None:
    """Drop the tables' indexes but the primary keys (their definitions kept in INDEX_FILE)
    for the load: building them afterwards is much quicker than keeping them up to date."""
    statements: list[str] = []
    for table in TABLES:
        cursor.execute(
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conrelid = %s::regclass AND contype = 'u'",
            [table],
        )
        unique = cursor.fetchall()
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s AND indexname "
            "NOT IN (SELECT conname FROM pg_constraint WHERE conrelid = %s::regclass "
            "AND contype IN ('p', 'u'))",
            [table, table],
        )
        plain = cursor.fetchall()
        statements += [definition for _name, definition in plain]
        statements += [f"ALTER TABLE {table} ADD CONSTRAINT {n} {d}" for n, d in unique]
        for name, _definition in unique:
            cursor.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
        for name, _definition in plain:
            cursor.execute(f"DROP INDEX {name}")
    INDEX_FILE.parent.mkdir(exist_ok=True)
    INDEX_FILE.write_text(";\n".join(statements))


def restore_indexes(cursor: Any) -> None:
    if INDEX_FILE.exists():
        for statement in INDEX_FILE.read_text().split(";\n"):
            if statement.strip():
                _run(cursor, statement)
        INDEX_FILE.unlink()


def summarise(cursor: Any) -> None:
    """The totals and periods of the loaded entries, as the job's increments add up."""
    results = (
        "count(*) FILTER (WHERE result = '1-0'), count(*) FILTER (WHERE result = '0-1'), "
        "count(*) FILTER (WHERE result = '1/2-1/2')"
    )
    _run(cursor, "INSERT INTO analysis_explorergame (game_id, indexed) "
                 "SELECT id, now() FROM games_game")  # fmt: skip
    _run(
        cursor,
        "INSERT INTO analysis_explorerposition "
        "(key, rated, imported, games, white, black, draws, dated) "
        f"SELECT key, rated, imported, count(*), {results}, count(*) >= %s "
        "FROM (SELECT DISTINCT key, game_id, rated, imported, result "
        "FROM analysis_explorerentry) reached GROUP BY key, rated, imported",
        [explorer.DATED_FROM],
    )
    _run(
        cursor,
        "INSERT INTO analysis_explorerturn (key, turn, rated, imported, games, white, black, "
        f"draws) SELECT key, turn, rated, imported, count(*), {results} "
        "FROM analysis_explorerentry WHERE turn <> '' GROUP BY key, turn, rated, imported",
    )
    _run(
        cursor,
        "CREATE TEMPORARY TABLE dated_entries AS SELECT e.key, e.game_id, e.turn, e.result, "
        "e.rated, e.imported, (e.finished AT TIME ZONE %s)::date AS day "
        "FROM analysis_explorerentry e JOIN analysis_explorerposition p "
        "ON p.key = e.key AND p.rated = e.rated AND p.imported = e.imported AND p.dated",
        [settings.TIME_ZONE],
    )
    columns = "(key, month, start, rated, imported, turn, games, white, black, draws)"
    for month, start in (("false", "day"), ("true", "date_trunc('month', day)::date")):
        _run(
            cursor,
            f"INSERT INTO analysis_explorerperiod {columns} "
            f"SELECT key, {month}, {start}, rated, imported, turn, count(*), {results} "
            "FROM dated_entries WHERE turn <> '' GROUP BY 1, 2, 3, 4, 5, 6",
        )
        _run(
            cursor,
            f"INSERT INTO analysis_explorerperiod {columns} "
            f"SELECT key, {month}, {start}, rated, imported, '', count(*), {results} "
            "FROM (SELECT DISTINCT key, game_id, rated, imported, result, day "
            "FROM dated_entries) reached GROUP BY 1, 2, 3, 4, 5, 6",
        )
    cursor.execute("DROP TABLE dated_entries")


def fill() -> None:
    with connection.cursor() as cursor:
        restore_indexes(cursor)  # a run stopped during its load
    if args.keep and ExplorerGame.objects.count() >= args.games:
        return
    print(f"storing {args.games:,} engine-played games and indexing them…", flush=True)
    began = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE games_game, analysis_explorerposition, analysis_explorerturn, "
            "analysis_explorerperiod, analysis_explorergame CASCADE"
        )
        User.objects.filter(username__startswith="bench").delete()
        drop_indexes(cursor)
    users = User.objects.bulk_create(
        [User(username=f"bench{i:05d}", password="!") for i in range(args.players)]
    )
    PLAYERS[:] = [user.pk for user in users]
    connection.close()  # the workers fork: each opens its own connection
    turns = entries = 0
    firsts = range(1, args.distinct + 1, CHUNK)
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for done, (turn_rows, entry_rows) in enumerate(pool.imap_unordered(fill_chunk, firsts), 1):
            turns += turn_rows
            entries += entry_rows
            if done % 4 == 0 or done == len(firsts):
                stored = min(done * CHUNK, args.distinct) * args.games // args.distinct
                rate = stored / (time.perf_counter() - began)
                print(f"  ~{stored:,} games ({rate:,.0f} games/s)", flush=True)
    loaded = time.perf_counter()
    print(f"games, {turns:,} turns and {entries:,} entries stored in {loaded - began:.0f} s")
    with connection.cursor() as cursor:
        cursor.execute("SET work_mem = '512MB'")
        cursor.execute("SET maintenance_work_mem = '1GB'")
        summarise(cursor)
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence('games_game', 'id'), "
            "(SELECT max(id) FROM games_game))"
        )
        summed = time.perf_counter()
        print(f"totals and periods summed in {summed - loaded:.0f} s")
        restore_indexes(cursor)
        indexed = time.perf_counter()
        print(f"indexes rebuilt in {indexed - summed:.0f} s")
        for table in TABLES:
            cursor.execute(f"VACUUM ANALYZE {table}")
        print(f"vacuumed in {time.perf_counter() - indexed:.0f} s")
    print(f"built in {time.perf_counter() - began:.0f} s in all", flush=True)


def sizes() -> None:
    with connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(
                f"SELECT count(*), pg_relation_size(%s), pg_total_relation_size(%s) FROM {table}",
                [table, table],
            )
            rows, heap, total = cursor.fetchone()
            print(f"  {table:27} {rows:>12,} rows  {heap / 2**20:8,.0f} MB table  "
                  f"{total / 2**20:8,.0f} MB with indexes")  # fmt: skip
        cursor.execute(
            "SELECT count(DISTINCT key), count(*) FILTER (WHERE dated) "
            "FROM analysis_explorerposition"
        )
        positions, dated = cursor.fetchone()
        print(f"  {positions:,} distinct positions; {dated:,} position kinds with "
              f"{explorer.DATED_FROM}+ games counted by period")  # fmt: skip


# --- Timing -------------------------------------------------------------------------


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(ordered):7.2f} ms   p95 {p95:7.2f} ms"


def incremental(count: int) -> list[float]:
    """Real games played to the end, each then indexed by the job's function alone."""
    rng = random.Random(5)
    white, black = User.objects.filter(username__in=["bench00000", "bench00001"]).order_by(
        "username"
    )
    timings = []
    for _ in range(count):
        game = services.start_game(white=white, black=black)
        position = Position.standard()
        for ply, text in enumerate(biased_game(rng)[0], 1):
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


Sample = tuple[str, int, int, int]  # position, a player of the game, White, Black


def samples(count: int) -> list[Sample]:
    """The start, and positions at random plies of random stored games."""
    rng = random.Random(9)
    last = Game.objects.order_by("-pk").values_list("pk", flat=True).first() or 1
    picked: list[Sample] = []
    ids = rng.sample(range(1, last + 1), count)
    for game_id in ids:
        row = Game.objects.filter(pk=game_id).values_list("white", "black").first()
        if row is None:
            continue
        white, black = row
        texts = list(
            TurnRow.objects.filter(game_id=game_id).order_by("ply").values_list("text", flat=True)
        )
        position = Position.standard()
        for text in texts[: rng.randint(0, len(texts))]:
            position.push_text(text)
        picked.append((str(position), rng.choice((white, black)), white, black))
    picked[0] = (START, *picked[0][1:])
    return picked


def filter_kinds(rng: random.Random) -> dict[str, Callable[[Sample], explorer.ExplorerFilters]]:
    newest = Game.objects.order_by("-finished").values_list("finished", flat=True).first()
    oldest = Game.objects.order_by("finished").values_list("finished", flat=True).first()
    assert newest is not None and oldest is not None
    last, first = newest.date(), oldest.date()
    span = (last - first).days
    F = explorer.ExplorerFilters

    def window() -> dict[str, datetime.date]:
        since = first + datetime.timedelta(days=rng.randrange(span))
        return {"since": since, "until": since + datetime.timedelta(days=rng.randint(7, 365))}

    def day() -> datetime.date:
        return first + datetime.timedelta(days=rng.randrange(span))

    month_ago = last - datetime.timedelta(days=30)
    return {
        "unfiltered": lambda s: F(),
        "rated=true": lambda s: F(rated=True),
        "imported=false": lambda s: F(imported=False),
        "player=": lambda s: F(player_id=s[1]),
        "player= color=": lambda s: F(player_id=s[1], color="white" if s[1] == s[2] else "black"),
        "since= (30 days)": lambda s: F(since=month_ago),
        "until=": lambda s: F(until=day()),
        "since= until= (7-365 days)": lambda s: F(**window()),
        "rated=false since= until=": lambda s: F(rated=False, **window()),
        "player= since= until=": lambda s: F(player_id=s[1], **window()),
        "imported=false since=": lambda s: F(since=day(), imported=False),
    }


def timed(picked: list[Sample], make: Callable[[Sample], explorer.ExplorerFilters]) -> list[float]:
    timings = []
    for sample in picked:
        position = Position.from_string(sample[0])
        filters = make(sample)
        began = time.perf_counter()
        explorer.explore(position, filters)
        timings.append((time.perf_counter() - began) * 1000)
    return timings


def reference(position: Position, filters: explorer.ExplorerFilters) -> dict[str, Any]:
    """The answer from grouping the position's entries alone (no totals, no periods)."""
    entries = explorer.matching_entries(explorer.position_key(str(position)), filters)
    counts = explorer._grouped(entries)  # (the bench compares the two paths)
    ordered = sorted(counts.items(), key=lambda item: (-item[1][0], item[0]))
    return {
        "position": str(position),
        "games": entries.values("game_id").distinct().count(),
        "turns": [explorer._turn_json(turn, *sums) for turn, sums in ordered],
    }


def main() -> None:
    call_command("migrate", verbosity=0)
    print(
        f"data: {args.games:,} finished games, copies of {args.distinct:,} distinct "
        "engine-played games (see the docstring), "
        f"{args.players:,} players, finished over {args.days} days; index entries from "
        f"analysis.explorer.reached, totals and periods summed by SQL; "
        f"DATED_FROM = {explorer.DATED_FROM}",
        flush=True,
    )
    fill()
    sizes()
    print(f"incremental index job per finished game:  {percentiles(incremental(args.incremental))}")
    picked = samples(args.queries)
    kinds = filter_kinds(random.Random(3))
    start = explorer.explore(Position.standard())
    print(f"start position: {start['games']:,} games, {len(start['turns'])} turns")
    timed(picked[:30], kinds["unfiltered"])  # warm the caches
    for name, make in kinds.items():
        print(f"explorer, {name:28} {len(picked)} positions: {percentiles(timed(picked, make))}")
        at_start = timed([picked[0]] * 9, make)
        print(f"explorer, {name:28} the start:     {percentiles(at_start)}", flush=True)
    checked = 0
    with connection.cursor() as cursor:  # the references group up to every game's entries
        cursor.execute("SET work_mem = '512MB'")
    rng = random.Random(3)
    kinds = filter_kinds(rng)
    for sample in picked[: args.check]:
        position = Position.from_string(sample[0])
        for name, make in kinds.items():
            filters = make(sample)
            got, wanted = explorer.explore(position, filters), reference(position, filters)
            assert got == wanted, (name, sample, filters)
            checked += 1
    print(f"{checked} answers ({args.check} positions × {len(kinds)} filters) equal to "
          f"grouping their entries")  # fmt: skip


if __name__ == "__main__":
    main()
