"""Soak of the production set-up (issue #14): turns, the stream attack, the import attacks.

Run from the repository root (PostgreSQL, Redis and nginx running, as for CI):

    nice -n 5 .venv/bin/python bench/soak.py --seconds 180

It creates its own PostgreSQL database (``adaptoid_soak``, dropped and recreated;
``--database-url``) on Redis database 12 (``--redis-url``), migrates, and starts what
production runs (production settings, DEBUG off): gunicorn with
``platform/gunicorn.conf.py`` and the stream service with
``platform/gunicorn-stream.conf.py`` behind nginx with the site's locations
(bench/api_load.py starts them), a Celery worker per queue of config/settings.py and beat.
For ``--seconds``:

* ``--clients`` (16) clients play turns through nginx, both sides of their games
  (bench/api_load.py's players and games; throttles raised so they do not cap the run);
* the stream attack (#14.1, the cache database is emptied first): ``--streams`` (110) connections at once to
  ``GET /api/v1/stream/events`` with one user's token, each opened again at once when it
  ends and a second after a refusal;
* the import attacks (#14.2), every ``--import-every`` seconds (60): a big file (more
  games than IMPORT_MAX_GAMES, close to UPLOAD_MAX_BYTES), a file above UPLOAD_MAX_BYTES,
  a file naming more new players than IMPORT_MAX_NEW_NAMES, and three uploads of one
  file at once by one user.

Every answer's status is counted per kind of request and printed as a table; any 5xx
(or a request no server answered) fails the run.  PostgreSQL connections of the
database are sampled all along (the streams hold none while they wait).  At the end the
import jobs are waited for and ``manage.py verify_games`` replays every stored game.
Exit status 1 on a 5xx or a game that does not replay.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import api_load  # bench/ is not a package: its sibling, found by the path above

ROOT = api_load.ROOT
QUEUES = (
    "interactive", "evaluations", "matches", "tournaments", "email", "imports", "analysis",
    "maintenance",
)  # fmt: skip


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--streams", type=int, default=110, help="stream connections at once")
    parser.add_argument("--import-every", type=float, default=60.0, help="seconds")
    parser.add_argument("--games-per-client", type=int, default=60)
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/adaptoid_soak"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/12")
    return parser.parse_args()


class Tally:
    """Statuses per kind of request (thread-safe)."""

    def __init__(self) -> None:
        self.counts: Counter[tuple[str, str]] = Counter()
        self.lock = threading.Lock()
        self.samples: dict[str, str] = {}  # a body of each 5xx/failure kind, for the report
        self.began = time.monotonic()
        self.failure_seconds: list[float] = []  # when each 5xx/failure came, from the start

    def add(self, kind: str, status: int | str, body: Any = None) -> None:
        with self.lock:
            self.counts[(kind, str(status))] += 1
            if isinstance(status, str) or status >= 500:
                self.failure_seconds.append(time.monotonic() - self.began)
                self.samples.setdefault(f"{kind} {status}", repr(body)[:300])

    def server_errors(self) -> int:
        return sum(
            n
            for (_kind, status), n in self.counts.items()
            if not status.startswith(("2", "3", "4"))
        )

    def table(self) -> str:
        kinds = sorted({kind for kind, _ in self.counts})
        statuses = sorted({status for _, status in self.counts})
        lines = [f"{'request':<14}" + "".join(f"{status:>9}" for status in statuses)]
        for kind in kinds:
            lines.append(
                f"{kind:<14}" + "".join(f"{self.counts.get((kind, s), 0):>9}" for s in statuses)
            )
        return "\n".join(lines)


# --- The load -------------------------------------------------------------------------------


def play_turns(port: int, client: api_load.Client, stop: float, seed: int, tally: Tally) -> None:
    from engine import Position

    rng = random.Random(seed)
    conn = api_load.Connection(port)
    games = list(client.games)
    game: dict[str, Any] | None = None
    while time.monotonic() < stop:
        try:
            if game is None or game["status"] != "active":
                if not games:
                    tally.add("turn", "out of games")
                    return
                status, game = conn.request(
                    "GET", f"/api/v1/games/{games.pop(0)}", client.white_token
                )
                tally.add("game", status, game)
                continue
            position = Position.from_string(game["position"])
            token = client.white_token if game["to_move"] == "white" else client.black_token
            body = {"ply": game["ply"] + 1, "turn": str(position.random_turn(rng))}
            status, answer = conn.request("POST", f"/api/v1/games/{game['id']}/turns", token, body)
            tally.add("turn", status, answer)
            if status == 201:
                game = answer
            else:
                status, game = conn.request(
                    "GET", f"/api/v1/games/{game['id']}", client.white_token
                )
                tally.add("game", status, game)
        except (OSError, http.client.HTTPException) as exc:
            tally.add("turn", "no answer", exc)
            conn = api_load.Connection(port)


def attack_streams(port: int, token: str, stop: float, tally: Tally) -> None:
    """One of the stream attacker's connections: open, read until it ends, again."""
    while time.monotonic() < stop:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.request(
                "GET", "/api/v1/stream/events", headers={"Authorization": f"Bearer {token}"}
            )
            answer = conn.getresponse()
            tally.add("stream", answer.status)
            if answer.status == 200:
                # A line at least every STREAM_KEEPALIVE_SECONDS (5): the loop sees `stop`.
                while time.monotonic() < stop:
                    if not answer.readline():
                        break  # the stream ended (STREAM_MAX_SECONDS): open it again
            else:
                body = answer.read()
                if answer.status >= 500:
                    tally.add("stream", f"{answer.status} body", body)
                elif answer.status == 429 and not answer.getheader("Retry-After"):
                    tally.add("stream", "429 without Retry-After")
                time.sleep(1)
        except (OSError, http.client.HTTPException) as exc:
            if time.monotonic() < stop:
                tally.add("stream", "no answer", exc)
                time.sleep(1)
        finally:
            conn.close()


def upload(port: int, token: str, name: str, data: bytes, tally: Tally) -> dict[str, Any] | None:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
            "Content-Type: text/plain\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request(
            "POST",
            "/api/v1/imports",
            body,
            {
                "Authorization": f"Bearer {token}",
                "Content-Type": f"multipart/form-data; boundary={boundary}",
            },
        )
        answer = conn.getresponse()
        text = answer.read()
    except (OSError, http.client.HTTPException) as exc:
        tally.add("import", "no answer", exc)
        return None
    finally:
        conn.close()
    tally.add("import", answer.status, text[:300])
    import json

    return json.loads(text) if answer.status == 202 else None


def import_files() -> dict[str, bytes]:
    """The attacks' files: big (over IMPORT_MAX_GAMES), too big (over UPLOAD_MAX_BYTES),
    many names (over IMPORT_MAX_NEW_NAMES), and an ordinary one (uploaded three at once)."""
    from archive.tests.agn_files import distinct_games

    ordinary = distinct_games(300, seed=7).encode()
    big = distinct_games(1000, seed=8).encode()
    names = "\n".join(
        distinct_games(1, seed=index, white=f"Stranger {index}", black=f"Other {index}")
        for index in range(600)
    ).encode()
    return {
        "big.agn": (big + b"\n") * (9_500_000 // (len(big) + 1)),  # ~9.5 MB, > 10,000 games
        "too-big.agn": (big + b"\n") * (11_000_000 // (len(big) + 1) + 1),
        "names.agn": names,
        "ordinary.agn": ordinary,
    }


def attack_imports(
    port: int, tokens: list[str], stop: float, every: float, tally: Tally, jobs: list[str]
) -> None:
    files = import_files()
    big_token, three_token = tokens
    while time.monotonic() < stop:
        began = time.monotonic()
        for name in ("big.agn", "too-big.agn", "names.agn"):
            if (job := upload(port, big_token, name, files[name], tally)) is not None:
                jobs.append(job["url"])

        def upload_ordinary() -> None:
            if (
                job := upload(port, three_token, "ordinary.agn", files["ordinary.agn"], tally)
            ) is not None:
                jobs.append(job["url"])

        threads = [threading.Thread(target=upload_ordinary) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        time.sleep(max(0.0, min(stop, began + every) - time.monotonic()))


def sample_connections(database_url: str, stop: threading.Event, seen: list[int]) -> None:
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    parts = urlsplit(database_url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        while not stop.wait(2):
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [name]
            ).fetchone()
            seen.append(int(row[0]) if row else 0)


# --- The machine ------------------------------------------------------------------------------


def start_celery(env: dict[str, str], args: list[str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", *args],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip


def site_env(database_url: str, redis_url: str, run: Path) -> dict[str, str]:
    """Production settings behind nginx (the one trusted proxy), e-mails kept as files in
    `run`/mail (also bench/public_day.py)."""
    env = api_load.production_env(database_url, redis_url, "127.0.0.1,localhost")
    env.update(
        LOG_LEVEL="WARNING",
        TRUSTED_PROXIES="1",  # nginx, the one proxy in front
        EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
        EMAIL_FILE_PATH=str(run / "mail"),
    )
    return env


def start_site(
    env: dict[str, str],
    run: Path,
    web_port: int,
    stream_port: int,
    port: int,
    workers: dict[str, int],
) -> list[subprocess.Popen[bytes]]:
    """What production runs (also bench/public_day.py): gunicorn (platform/gunicorn.conf.py),
    the stream service (platform/gunicorn-stream.conf.py), nginx in front with the site's
    locations on `port`, a Celery worker per queue of `workers` (its number of
    processes) and beat; logs in `run`.  Returns once the workers had time to connect."""
    processes = [
        api_load.start_gunicorn(
            {**env, "GUNICORN_BIND": f"127.0.0.1:{web_port}"}, web_port, [], log=run / "web.log"
        ),
        api_load.start_gunicorn(
            {**env, "GUNICORN_BIND": f"127.0.0.1:{stream_port}"},
            stream_port,
            [],
            "gunicorn-stream.conf.py",
            log=run / "stream.log",
        ),
    ]
    nginx, _nginx_run = api_load.start_nginx(port, web_port, stream_port)
    processes.append(nginx)
    for queue, concurrency in workers.items():
        processes.append(
            start_celery(
                env,
                [
                    "worker",
                    "-Q",
                    queue,
                    f"--concurrency={concurrency}",
                    "--loglevel=WARNING",
                    "--hostname",
                    f"{run.name}-{queue}@%h",
                ],
                run / f"worker-{queue}.log",
            )
        )
    processes.append(
        start_celery(
            env,
            ["beat", "--loglevel=WARNING", "--schedule", str(run / "beat-schedule")],
            run / "beat.log",
        )
    )
    time.sleep(5)  # the workers connect to the broker
    return processes


def stop_site(processes: list[subprocess.Popen[bytes]], run: Path) -> None:
    """Stop what start_site started (the last first), then show each log with an error."""
    for process in reversed(processes):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
    for log in sorted(run.glob("*.log")):
        text = log.read_text(errors="replace")
        if "Traceback" in text or "Internal Server Error" in text:
            print(f"{log.name}: an error\n{text[-3000:]}")


def wait_for_jobs(
    port: int, token_of: dict[str, str], jobs: list[str], tally: Tally, seconds: float
) -> Counter[str]:
    """Poll each accepted import job until it is done or failed; their end states."""
    deadline = time.monotonic() + seconds
    ends: Counter[str] = Counter()
    conn = api_load.Connection(port)
    for url in jobs:
        while True:
            for token in token_of.values():
                status, job = conn.request("GET", url, token)
                if status == 200:
                    break
            tally.add("import-job", status, job)
            if status != 200 or job["status"] in ("done", "failed") or time.monotonic() > deadline:
                ends[
                    f"{job.get('status')} {job.get('error') or ''}".strip()
                    if status == 200
                    else str(status)
                ] += 1
                break
            time.sleep(1)
    return ends


def main() -> int:
    args = parse_args()
    sys.setswitchinterval(0.0005)
    run = Path(tempfile.mkdtemp(prefix="adaptoid-soak-"))
    web_port, stream_port, port = api_load.free_port(), api_load.free_port(), api_load.free_port()
    env = site_env(args.database_url, args.redis_url, run)
    print(
        f"preparing {args.clients} clients × {args.games_per_client} games on {args.database_url}"
    )
    load_args = argparse.Namespace(
        clients=args.clients, games_per_client=args.games_per_client, database_url=args.database_url
    )
    clients = api_load.prepare(load_args, env)
    from django.db import connections

    from accounts import services as account_services

    tokens = {}
    for name in ("streamer", "importer", "importer-three"):
        user = account_services.register_account(
            username=f"soak-{name}", password=api_load.PASSWORD
        )
        tokens[name] = account_services.create_token(user=user)
    connections.close_all()
    from django.core.cache import cache

    # The bench's own cache database (--redis-url's next one): stream slots left taken by
    # an earlier run's stream process, stopped with its streams open, would refuse this
    # run's first streams until they expire (STREAM_MAX_SECONDS + 60 s).
    cache.clear()

    processes: list[subprocess.Popen[bytes]] = []
    try:
        processes += start_site(env, run, web_port, stream_port, port, dict.fromkeys(QUEUES, 1))
        print(
            f"nginx :{port} → gunicorn :{web_port} (platform/gunicorn.conf.py), stream :{stream_port} "
            f"(platform/gunicorn-stream.conf.py); a worker per queue ({', '.join(QUEUES)}) and beat; "
            f"{args.clients} clients, {args.streams} streams of one token, imports every "
            f"{args.import_every:.0f} s, for {args.seconds:.0f} s; load before {os.getloadavg()[0]:.2f}"
        )
        tally = Tally()
        jobs: list[str] = []
        stop = time.monotonic() + args.seconds
        sampling, seen = threading.Event(), list[int]()
        threads = [
            threading.Thread(target=play_turns, args=(port, client, stop, index, tally))
            for index, client in enumerate(clients)
        ]
        threads += [
            threading.Thread(target=attack_streams, args=(port, tokens["streamer"], stop, tally))
            for _ in range(args.streams)
        ]
        threads.append(
            threading.Thread(
                target=attack_imports,
                args=(
                    port,
                    [tokens["importer"], tokens["importer-three"]],
                    stop,
                    args.import_every,
                    tally,
                    jobs,
                ),
            )
        )
        sampler = threading.Thread(
            target=sample_connections, args=(args.database_url, sampling, seen)
        )
        sampler.start()
        began = tally.began = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        took = time.monotonic() - began
        ends = wait_for_jobs(
            port, {k: v for k, v in tokens.items() if k.startswith("importer")}, jobs, tally, 300
        )
        sampling.set()
        sampler.join()

        turns = sum(
            n for (kind, status), n in tally.counts.items() if kind == "turn" and status == "201"
        )
        print(f"\nran {took:.0f} s: {turns} turns stored ({turns / took:.0f}/s)\n")
        print(tally.table())
        print(f"\nimport jobs accepted: {len(jobs)}; their end: {dict(ends)}")
        print(
            f"PostgreSQL connections of the database (sampled every 2 s): max {max(seen, default=0)}"
        )
        errors = tally.server_errors()
        print(f"5xx or no answer: {errors}")
        if tally.failure_seconds:
            print(
                f"   from {min(tally.failure_seconds):.0f} s to {max(tally.failure_seconds):.0f} s"
            )
        for kind, body in tally.samples.items():
            print(f"   {kind}: {body}")
    finally:
        stop_site(processes, run)

    print("\nmanage.py verify_games:")
    verify = subprocess.run(  # its status is looked at below
        [sys.executable, "manage.py", "verify_games"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    print((verify.stdout + verify.stderr).strip()[-3000:])
    ok = errors == 0 and verify.returncode == 0
    print("PASS: 0 5xx, every game replays" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
