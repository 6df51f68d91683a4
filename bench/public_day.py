"""A public day on the production set-up (issue #28): players and bots, and every flood at once.

Run from the repository root (PostgreSQL, Redis and nginx running, as for CI):

    .venv/bin/python bench/public_day.py --seconds 150

It creates its own PostgreSQL database (``adaptoid_public_day``, dropped and recreated;
``--database-url``) on Redis database 12 (``--redis-url``), migrates, and starts what
production runs (production settings, DEBUG off, the production throttles and caps but
for the turn and token rates): gunicorn with ``platform/gunicorn.conf.py`` and the
stream service with ``platform/gunicorn-stream.conf.py`` behind nginx with the site's
locations, a Celery worker per queue of ``settings.TASK_QUEUES`` and beat.  Every
client connects from a loopback address of its own (127.0.0.x), so nginx and the site
see as many addresses as there are callers.  For ``--seconds``, all at once:

* 16 clients play turns, both sides of their games (bench/api_load.py's players);
* a bot's fan challenges ``random-bot``, plays a few turns of each game and resigns: the
  time to the bot's accept and to each of its replies is measured;
* evaluations: 3 accounts and 3 anonymous addresses send analysis-board evaluations
  as fast as the server takes them;
* analyses: 9 accounts ask for the analysis of 10 finished games each (asking again
  while refused); after 10 s a victim asks for the analysis of their own 10-ply game:
  the time until it starts is measured;
* imports: 3 accounts upload two 10,000-game files each; after 15 s a victim uploads a
  5-game file: the time until its job is done is measured;
* streams: 36 accounts from 18 addresses hold as many bot and page streams as they are
  given; every 10 s a fresh bot opens its event stream from a fresh address: the time to
  its status line is measured;
* a stranger sends wrong passwords for the victim's account from one address while the
  victim, from another, logs in every 10 s with the right one.

Prints each figure beside its target, the statuses per kind of request, and exits 1 if
a target is missed or any 5xx (or unanswered request) was seen.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import multiprocessing.process
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import api_load  # bench/ is not a package: siblings, found by the path above
import soak

PASSWORD = api_load.PASSWORD
BOT = "random-bot"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=150.0)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--games-per-client", type=int, default=60)
    parser.add_argument("--import-games", type=int, default=10_000, help="games per big file")
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/adaptoid_public_day"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/12")
    return parser.parse_args()


# --- Clients from addresses of their own ----------------------------------------------------


class Caller:
    """One keep-alive connection to nginx from the loopback address `source`."""

    def __init__(self, port: int, source: str, token: str | None = None) -> None:
        self.port, self.source, self.token = port, source, token
        self.cookies: dict[str, str] = {}
        self.conn = self._connect()

    def _connect(self, timeout: float = 30) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=timeout, source_address=(self.source, 0)
        )

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        headers = {"Connection": "keep-alive", **(extra or {})}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return headers

    def raw(
        self, method: str, path: str, body: bytes | None = None, extra: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body, self.headers(extra))
                response = self.conn.getresponse()
                data = response.read()
                for header, value in response.getheaders():
                    if header.lower() == "set-cookie":
                        name, _, rest = value.partition("=")
                        self.cookies[name.strip()] = rest.split(";", 1)[0]
                return response.status, {k.lower(): v for k, v in response.getheaders()}, data
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()
                self.conn = self._connect()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def json(
        self, method: str, path: str, body: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, str], Any]:
        payload = json.dumps(body).encode() if body is not None else None
        extra = {"Content-Type": "application/json"} if payload is not None else None
        status, headers, data = self.raw(method, path, payload, extra)
        try:
            return status, headers, json.loads(data or b"null")
        except ValueError:
            return status, headers, data[:300]

    def log_in(self, username: str) -> bool:
        """The website's log-in form: a session cookie for the page streams."""
        _status, _headers, page = self.raw("GET", "/accounts/login/")
        found = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if not found:
            return False
        form = (
            f"csrfmiddlewaretoken={found.group(1).decode()}&username={username}&password={PASSWORD}"
        ).encode()
        status, _headers, _body = self.raw(
            "POST",
            "/accounts/login/",
            form,
            {"Content-Type": "application/x-www-form-urlencoded"},
        )
        self.last_status = status
        return status == 302 and "sessionid" in self.cookies


def address(block: int, index: int) -> str:
    return f"127.0.{block}.{index}"


class Tally(soak.Tally):
    def server_errors(self) -> int:
        """The 5xx and unanswered requests, but the busy refusals (503 with Retry-After)."""
        return sum(
            n
            for (_kind, status), n in self.counts.items()
            if not status.startswith(("2", "3", "4", "busy"))
        )


@dataclass
class Figures:
    """Measured waits (seconds) per figure, and the statuses per kind of request."""

    tally: Tally = field(default_factory=Tally)
    waits: dict[str, list[float]] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def wait(self, name: str, seconds: float) -> None:
        with self.lock:
            self.waits.setdefault(name, []).append(seconds)


def retry_after(headers: dict[str, str]) -> float:
    try:
        return max(0.2, min(10.0, float(headers.get("retry-after", "1"))))
    except ValueError:
        return 1.0


# --- The callers ----------------------------------------------------------------------------


def bot_fan(port: int, token: str, stop: float, figures: Figures) -> None:
    """Challenges the bot, times its accept and its replies, resigns after a few turns."""
    from engine import Position

    rng = random.Random(5)
    caller = Caller(port, address(1, 2), token)
    while time.monotonic() < stop:
        try:
            sent = time.monotonic()
            status, _h, challenge = caller.json(
                "POST", "/api/v1/challenges", {"opponent": BOT, "color": "white"}
            )
            figures.tally.add("challenge", status, challenge)
            if status != 201:
                time.sleep(1)
                continue
            game_id = None
            while time.monotonic() < sent + 120:
                status, _h, answer = caller.json("GET", f"/api/v1/challenges/{challenge['id']}")
                figures.tally.add("challenge-get", status, answer)
                if status == 200 and answer.get("game"):
                    game_id = answer["game"]
                    break
                time.sleep(0.1)
            figures.wait("bot accepts a challenge", time.monotonic() - sent)
            if game_id is None:
                continue
            status, _h, game = caller.json("GET", f"/api/v1/games/{game_id}")
            for _turn in range(4):
                if time.monotonic() > stop or game.get("status") != "active":
                    break
                position = Position.from_string(game["position"])
                body = {"ply": game["ply"] + 1, "turn": str(position.random_turn(rng))}
                sent = time.monotonic()
                status, _h, game = caller.json("POST", f"/api/v1/games/{game_id}/turns", body)
                figures.tally.add("bot-game-turn", status, game)
                if status != 201:
                    break
                while time.monotonic() < sent + 120 and game.get("status") == "active":
                    if game.get("to_move") == "white":
                        break
                    time.sleep(0.1)
                    status, _h, game = caller.json("GET", f"/api/v1/games/{game_id}")
                    figures.tally.add("bot-game-get", status, game)
                if game.get("status") == "active":
                    figures.wait("bot replies to a turn", time.monotonic() - sent)
            if game.get("status") == "active":
                status, _h, answer = caller.json("POST", f"/api/v1/games/{game_id}/resign")
                figures.tally.add("resign", status, answer)
        except (OSError, http.client.HTTPException) as exc:
            figures.tally.add("challenge", "no answer", exc)
            caller = Caller(port, address(1, 2), token)


def evaluator(port: int, source: str, token: str | None, stop: float, figures: Figures) -> None:
    """Sends analysis-board evaluations as fast as the server takes them."""
    from engine import Position

    rng = random.Random(source)
    caller = Caller(port, source, token)
    kind = "evaluation" if token else "evaluation-anon"
    while time.monotonic() < stop:
        position = Position.standard()
        for _ in range(rng.randint(4, 20)):
            if position.outcome() is not None:
                break
            position.push(position.random_turn(rng))
        try:
            status, headers, answer = caller.json(
                "POST", "/api/v1/evaluations", {"position": str(position)}
            )
        except (OSError, http.client.HTTPException) as exc:
            figures.tally.add(kind, "no answer", exc)
            caller = Caller(port, source, token)
            continue
        figures.tally.add(kind, refusal(status, headers.get("retry-after")), answer)
        if status in (429, 503):
            if not headers.get("retry-after"):
                figures.tally.add(kind, f"{status} without Retry-After")
            time.sleep(0.5)  # a flood: it asks again well before Retry-After
        else:
            time.sleep(0.05)


def analyst(
    port: int, source: str, token: str, games: list[int], stop: float, figures: Figures
) -> None:
    """Asks for the analysis of each game, asking again while refused."""
    caller = Caller(port, source, token)
    waiting = list(games)
    while waiting and time.monotonic() < stop:
        game_id = waiting[0]
        try:
            status, headers, answer = caller.json("POST", f"/api/v1/games/{game_id}/analysis")
        except (OSError, http.client.HTTPException) as exc:
            figures.tally.add("analysis", "no answer", exc)
            caller = Caller(port, source, token)
            continue
        figures.tally.add("analysis", refusal(status, headers.get("retry-after")), answer)
        if status in (200, 202):
            waiting.pop(0)
        elif status in (429, 503):
            time.sleep(min(5.0, retry_after(headers)))
        else:
            waiting.pop(0)


def victim_analysis(port: int, token: str, game_id: int, stop: float, figures: Figures) -> None:
    """The victim's own short game: the time until its analysis starts (and is done)."""
    caller = Caller(port, address(1, 3), token)
    sent = time.monotonic()
    started = None
    while time.monotonic() < stop + 120:
        status, headers, answer = caller.json("POST", f"/api/v1/games/{game_id}/analysis")
        figures.tally.add("victim-analysis", refusal(status, headers.get("retry-after")), answer)
        if status in (200, 202):
            break
        time.sleep(min(5.0, retry_after(headers)))
    else:
        figures.notes["victim's analysis starts"] = "never accepted"
        return
    while time.monotonic() < stop + 120:
        status, _h, answer = caller.json("GET", f"/api/v1/games/{game_id}/analysis")
        figures.tally.add("victim-analysis-get", status, answer)
        state = answer.get("status") if isinstance(answer, dict) else None
        if started is None and state in ("running", "done"):
            started = time.monotonic() - sent
            figures.wait("victim's analysis starts", started)
        if state == "done":
            figures.wait("victim's analysis is done", time.monotonic() - sent)
            return
        time.sleep(0.5)
    if started is None:
        figures.notes["victim's analysis starts"] = "not started"


def upload(caller: Caller, name: str, data: bytes) -> tuple[int, dict[str, str], Any]:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
            "Content-Type: text/plain\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    status, headers, text = caller.raw(
        "POST",
        "/api/v1/imports",
        body,
        {"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    try:
        return status, headers, json.loads(text)
    except ValueError:
        return status, headers, text[:300]


def importer(
    port: int, source: str, token: str, files: list[bytes], stop: float, figures: Figures
) -> None:
    caller = Caller(port, source, token)
    caller.conn.timeout = 120
    for index, data in enumerate(files):
        while time.monotonic() < stop:
            try:
                status, headers, answer = upload(caller, f"big-{index}.agn", data)
            except (OSError, http.client.HTTPException) as exc:
                figures.tally.add("import", "no answer", exc)
                caller = Caller(port, source, token)
                continue
            figures.tally.add("import", refusal(status, headers.get("retry-after")), answer)
            if status == 202:
                break
            time.sleep(min(5.0, retry_after(headers)))


def victim_import(port: int, token: str, data: bytes, stop: float, figures: Figures) -> None:
    caller = Caller(port, address(1, 4), token)
    sent = time.monotonic()
    while time.monotonic() < stop + 120:
        status, headers, job = upload(caller, "mine.agn", data)
        figures.tally.add("victim-import", refusal(status, headers.get("retry-after")), job)
        if status == 202:
            break
        time.sleep(min(5.0, retry_after(headers)))
    else:
        figures.notes["victim's 5-game import is done"] = "never accepted"
        return
    url = job["url"]
    path = url[url.index("/api/") :] if "/api/" in url else url
    while time.monotonic() < stop + 120:
        status, _h, job = caller.json("GET", path)
        figures.tally.add("victim-import-get", status, job)
        if status == 200 and job.get("status") in ("done", "failed"):
            figures.wait("victim's 5-game import is done", time.monotonic() - sent)
            if job["status"] != "done":
                figures.notes["victim's 5-game import is done"] = f"ended {job['status']}"
            return
        time.sleep(0.5)
    figures.notes["victim's 5-game import is done"] = "not done"


def hold_stream(
    port: int, source: str, path: str, auth: Callable[[], dict[str, str]], stop: float, kind: str,
    figures: Figures,
) -> None:  # fmt: skip
    """One stream connection of the flood: open, read until it ends, again."""
    while time.monotonic() < stop:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15, source_address=(source, 0))
        try:
            conn.request("GET", path, headers=auth())
            answer = conn.getresponse()
            figures.tally.add(kind, refusal(answer.status, answer.getheader("Retry-After")))
            if answer.status == 200:
                while time.monotonic() < stop:
                    if not answer.readline():
                        break
            else:
                answer.read()
                time.sleep(1)
        except (OSError, http.client.HTTPException) as exc:
            if time.monotonic() < stop:
                figures.tally.add(kind, "no answer", exc)
                time.sleep(1)
        finally:
            conn.close()


def refusal(status: int, retry_after: str | None) -> int | str:
    """A 503 with Retry-After is the stream service saying "busy" (a refusal it was
    built to give, at once): counted apart from the 5xx that are failures."""
    return "busy 503" if status == 503 and retry_after else status


def fresh_bot_streams(port: int, tokens: list[str], stop: float, figures: Figures) -> None:
    """Every 10 s a bot that has no stream opens one: the time to its status line."""
    for index, token in enumerate(tokens):
        if time.monotonic() > stop - 5:
            return
        time.sleep(10)
        conn = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=60, source_address=(address(3, index + 1), 0)
        )
        sent = time.monotonic()
        try:
            conn.request(
                "GET", "/api/v1/stream/events", headers={"Authorization": f"Bearer {token}"}
            )
            answer = conn.getresponse()
            figures.wait("fresh bot stream: status line", time.monotonic() - sent)
            figures.tally.add(
                "fresh-bot-stream", refusal(answer.status, answer.getheader("Retry-After"))
            )
        except (OSError, http.client.HTTPException) as exc:
            figures.tally.add("fresh-bot-stream", "no answer", exc)
        finally:
            conn.close()


def stranger(port: int, victim: str, stop: float, figures: Figures) -> None:
    """Wrong passwords for the victim's account, from one address, as fast as answered."""
    caller = Caller(port, address(4, 1))
    while time.monotonic() < stop:
        try:
            status, _h, answer = caller.json(
                "POST", "/api/v1/auth/token", {"username": victim, "password": "wrong-password"}
            )
        except (OSError, http.client.HTTPException) as exc:
            figures.tally.add("stranger-log-in", "no answer", exc)
            caller = Caller(port, address(4, 1))
            continue
        figures.tally.add("stranger-log-in", status, answer)


def victim_log_ins(port: int, victim: str, stop: float, figures: Figures) -> None:
    """The victim logs in with the right password every 10 s, from an address of its own."""
    caller = Caller(port, address(4, 2))
    while time.monotonic() < stop - 5:
        time.sleep(10)
        status, _h, answer = caller.json(
            "POST", "/api/v1/auth/token", {"username": victim, "password": PASSWORD}
        )
        figures.tally.add("victim-log-in", status, answer)
        figures.wait("victim logs in (1 = yes)", 1.0 if status == 200 else 0.0)


# --- Set-up ---------------------------------------------------------------------------------


@dataclass
class Cast:
    clients: list[api_load.Client]
    tokens: dict[str, str]
    analyst_games: dict[str, list[int]]
    victim_game: int
    big_files: list[bytes]
    small_file: bytes


def finished_game(white: Any, black: Any, plies: int, rng: random.Random) -> int:
    from engine import Position
    from games import services

    game = services.start_game(white=white, black=black, rated=False)
    position = Position.from_string(game.position)
    for ply in range(1, plies + 1):
        if position.outcome() is not None:
            break
        turn = position.random_turn(rng)
        player = white if position.side_to_move.value == "white" else black
        game, _ = services.play_turn(game=game, player=player, text=str(turn), ply=ply)
        position = Position.from_string(game.position)
    game.refresh_from_db()
    if game.status != "finished":
        player = white if game.to_move == "white" else black
        services.resign(game=game, player=player)
    return int(game.pk)


def prepare(args: argparse.Namespace, env: dict[str, str]) -> Cast:
    load_args = argparse.Namespace(
        clients=args.clients, games_per_client=args.games_per_client, database_url=args.database_url
    )
    clients = api_load.prepare(load_args, env)  # migrates; Django is set up from here on
    from django.core.management import call_command

    from accounts import services as account_services
    from archive.tests.agn_files import distinct_games

    # The pages' static files, as the production image collects them (staticfiles/).
    call_command("collectstatic", interactive=False, verbosity=0)
    from bots.services import ensure_builtin_bots

    ensure_builtin_bots()
    names = ["fan", "victim", "stranger"]
    names += [f"evaluator{i}" for i in range(3)] + [f"analyst{i}" for i in range(9)]
    names += [f"importer{i}" for i in range(3)] + [f"streamer{i}" for i in range(36)]
    names += [f"freshbot{i}" for i in range(int(args.seconds // 10) + 1)]
    users, tokens = {}, {}
    for name in names:
        users[name] = account_services.register_account(username=f"pd-{name}", password=PASSWORD)
        tokens[name] = account_services.create_token(user=users[name])
    from bots.services import become_bot

    for name in names:
        if name.startswith("freshbot"):
            become_bot(user=users[name])  # a bot author's new bot (POST /api/v1/me/bot)
    rng = random.Random(3)
    victim_game = finished_game(users["victim"], users["stranger"], 10, rng)
    analyst_games = {
        f"analyst{i}": [
            finished_game(users["fan"], users["stranger"], rng.randint(16, 40), rng)
            for _ in range(10)
        ]
        for i in range(9)
    }
    print(f"   {sum(map(len, analyst_games.values())) + 1} finished games for the analyses")
    big_files = [distinct_games(args.import_games, seed=100 + index).encode() for index in range(6)]
    print(f"   six import files of {args.import_games} games ({len(big_files[0]) // 1000} kB each)")
    small_file = distinct_games(5, seed=999, white="Vic", black="Tim").encode()
    from django.db import connections

    connections.close_all()
    return Cast(clients, tokens, analyst_games, victim_game, big_files, small_file)


TARGETS: list[tuple[str, str, Callable[[list[float]], float], float]] = [
    ("bot accepts a challenge", "p95", lambda v: percentile(v, 95), 3.0),
    ("bot replies to a turn", "p95", lambda v: percentile(v, 95), 3.0),
    ("victim's analysis starts", "max", max, 60.0),
    ("victim's 5-game import is done", "max", max, 60.0),
    ("fresh bot stream: status line", "max", max, 1.0),
]


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def report(figures: Figures) -> bool:
    ok = True
    print(f"\n{'figure':<34} {'n':>4} {'median':>8} {'stat':>5} {'value':>8}  target")
    for name, stat, compute, limit in TARGETS:
        values = figures.waits.get(name, [])
        if not values:
            print(f"{name:<34} {0:>4} {'-':>8} {stat:>5} {'-':>8}  < {limit:g} s  MISSED "
                  f"({figures.notes.get(name, 'no measure')})")  # fmt: skip
            ok = False
            continue
        value = compute(values)
        met = value < limit and name not in figures.notes
        ok &= met
        print(
            f"{name:<34} {len(values):>4} {statistics.median(values):>7.2f}s {stat:>5} "
            f"{value:>7.2f}s  < {limit:g} s  {'met' if met else 'MISSED'}"
            + (f" ({figures.notes[name]})" if name in figures.notes else "")
        )
    log_ins = figures.waits.get("victim logs in (1 = yes)", [])
    logged = sum(log_ins)
    met = bool(log_ins) and logged == len(log_ins)
    ok &= met
    print(f"{'victim logs in (every try)':<34} {len(log_ins):>4} {'':>8} {'':>5} "
          f"{int(logged):>4}/{len(log_ins):<3}  all  {'met' if met else 'MISSED'}")  # fmt: skip
    errors = figures.tally.server_errors()
    ok &= errors == 0
    print(f"{'5xx or no answer':<34} {'':>4} {'':>8} {'':>5} {errors:>8}  0  "
          f"{'met' if errors == 0 else 'MISSED'}")  # fmt: skip
    return ok


def run_threads(jobs: list[Callable[[Figures], None]], figures: Figures, stop: float) -> None:
    threads = [threading.Thread(target=job, args=(figures,), daemon=True) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(1.0, stop + 200 - time.monotonic()))


def in_process(
    jobs: list[Callable[[Figures], None]], stop: float
) -> tuple[multiprocessing.process.BaseProcess, Any]:
    """Run `jobs` as threads of a forked process; its tallies come back through a pipe."""
    receive, send = multiprocessing.get_context("fork").Pipe(duplex=False)

    def run() -> None:
        figures = Figures()
        run_threads(jobs, figures, stop)
        send.send((dict(figures.tally.counts), figures.tally.samples, figures.waits))

    child = multiprocessing.get_context("fork").Process(target=run, daemon=True)
    child.start()
    return child, receive


def main() -> int:
    args = parse_args()
    sys.setswitchinterval(0.0005)
    run = Path(tempfile.mkdtemp(prefix="adaptoid-public-day-"))
    web_port, stream_port, port = api_load.free_port(), api_load.free_port(), api_load.free_port()
    env = soak.site_env(args.database_url, args.redis_url, run)
    print(f"preparing on {args.database_url} (run files in {run})")
    cast = prepare(args, env)
    # The bench's own Redis databases, broker and cache: an earlier run's messages (sent
    # to workers it stopped) and its stream slots and lockouts would be this run's load.
    import redis
    from django.conf import settings
    from django.core.cache import cache

    for url in (args.redis_url, settings.CACHES["default"]["LOCATION"]):
        redis.Redis.from_url(url).flushdb()
    cache.clear()
    from dev import WORKER_QUEUES  # a worker per queue, as `dev.py start` runs them

    queues = list(settings.TASK_QUEUES)

    processes: list[subprocess.Popen[bytes]] = []
    figures = Figures()
    try:
        processes += soak.start_site(
            env, run, web_port, stream_port, port, {q: WORKER_QUEUES.get(q, 1) for q in queues}
        )
        print(
            f"nginx :{port} → web :{web_port}, stream :{stream_port}; a worker per queue "
            f"({', '.join(queues)}) and beat; {args.seconds:.0f} s; "
            f"load before {os.getloadavg()[0]:.2f}"
        )
        stop = time.monotonic() + args.seconds
        tokens = cast.tokens
        # The callers, in groups: each flood group runs in a process of its own, so that
        # hundreds of client threads never hold the measuring threads' interpreter lock.
        Job = Callable[[Figures], None]
        measuring: list[Job] = []
        turns: list[Job] = []
        jobs_flood: list[Job] = []
        streams: list[list[Job]] = [[], []]

        def later(delay: float, job: Job) -> Job:
            def run_later(figures: Figures) -> None:
                time.sleep(delay)
                job(figures)

            return run_later

        for index, client in enumerate(cast.clients):
            turns.append(
                lambda f, client=client, index=index: soak.play_turns(
                    port, client, stop, index, f.tally
                )
            )
        measuring.append(lambda f: bot_fan(port, tokens["fan"], stop, f))
        for i in range(3):
            token = tokens[f"evaluator{i}"]
            jobs_flood.append(
                lambda f, i=i, token=token: evaluator(port, address(5, i + 1), token, stop, f)
            )
            jobs_flood.append(lambda f, i=i: evaluator(port, address(5, i + 11), None, stop, f))
        for i in range(9):
            name = f"analyst{i}"
            jobs_flood.append(
                lambda f, i=i, name=name: analyst(
                    port, address(6, i + 1), tokens[name], cast.analyst_games[name], stop, f
                )
            )
        for i in range(3):
            files = cast.big_files[2 * i : 2 * i + 2]
            jobs_flood.append(
                lambda f, i=i, files=files: importer(
                    port, address(7, i + 1), tokens[f"importer{i}"], files, stop, f
                )
            )
        for _ in range(3):
            jobs_flood.append(lambda f: stranger(port, "pd-victim", stop, f))
        for i in range(36):
            source = address(8, i // 2 + 1)  # two accounts per address
            token = tokens[f"streamer{i}"]
            group = streams[i % 2]
            for _ in range(5):
                group.append(
                    lambda f, source=source, token=token: hold_stream(
                        port, source, "/api/v1/stream/events",
                        lambda: {"Authorization": f"Bearer {token}"}, stop, "stream", f,
                    )
                )  # fmt: skip
            web = Caller(port, source)
            if web.log_in(f"pd-streamer{i}"):
                cookie = f"sessionid={web.cookies['sessionid']}"
                for _ in range(5):
                    group.append(
                        lambda f, source=source, cookie=cookie: hold_stream(
                            port, source, "/api/v1/stream/page-events",
                            lambda: {"Cookie": cookie}, stop, "page-stream", f,
                        )
                    )  # fmt: skip
            else:
                figures.tally.add("web-log-in", f"failed {getattr(web, 'last_status', '?')}")
        fresh = [tokens[name] for name in tokens if name.startswith("freshbot")]
        measuring.append(lambda f: fresh_bot_streams(port, fresh, stop, f))
        measuring.append(lambda f: victim_log_ins(port, "pd-victim", stop, f))
        measuring.append(
            later(10, lambda f: victim_analysis(port, tokens["victim"], cast.victim_game, stop, f))
        )
        measuring.append(
            later(15, lambda f: victim_import(port, tokens["victim"], cast.small_file, stop, f))
        )
        figures.tally.began = time.monotonic()
        flood = [in_process(group, stop) for group in (turns, jobs_flood, *streams)]
        run_threads(measuring, figures, stop)
        for child, receive in flood:
            counts, samples, waits = (
                receive.recv() if receive.poll(stop + 260 - time.monotonic()) else ({}, {}, {})
            )
            child.join(10)
            figures.tally.counts.update(counts)
            for key, value in samples.items():
                figures.tally.samples.setdefault(key, value)
            for name, values in waits.items():
                figures.waits.setdefault(name, []).extend(values)
        print(f"\nload after {os.getloadavg()[0]:.2f}\n")
        print(figures.tally.table())
        for kind, body in figures.tally.samples.items():
            print(f"   {kind}: {body}")
        ok = report(figures)
    finally:
        soak.stop_site(processes, run)
    print("ALL TARGETS MET" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
