"""Issue #14.12: several machines.  Two web nodes (gunicorn with platform/gunicorn.conf.py,
DEBUG off) and two Celery workers (every queue of config/settings.py) on one PostgreSQL
and one Redis; clients play turns through both nodes (a game against a bot among them),
two bot matches run, a Swiss tournament is started (its round paired by a job) and
e-mails go out.  In the middle one web node and one worker are SIGKILLed: a client whose
request was cut retries it on the other node (a turn already stored answers 200, the
same turn), the killed worker is started again as its supervisor would
(``restart: unless-stopped``), and the beat tasks run as beat runs them.  Then: every
game replays (``verify_games``), no ply twice, no bot left to act, both matches played
out, round 1 paired once with every player on one board, every e-mail sent exactly once
(the file backend: one file per message, its Message-ID the notification's).

PostgreSQL and Redis only (CI runs them): the embedded SQLite file and file-system
broker are one machine's.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import http.client
import json
import os
import random
import re
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import connection
from django.db.models import Count, Q
from django.utils import timezone

from accounts import services as account_services
from archive.verification import verify_games
from bots import services as bots
from bots.models import BotMatch
from config.celery import app as celery_app
from config.tests.servers import free_port, start_gunicorn, wait_until_listening
from engine import Position
from games import services as games
from games.models import Game, Turn
from notifications.models import EmailState, Notification
from notifications.services import STALE_CLAIM
from tournaments import services as tournaments
from tournaments.models import Pairing, Tournament

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

PASSWORD = "several-machines-4711"
CLIENTS = 4
GAMES_PER_CLIENT = 3
LOAD_SECONDS = 20.0
START_TOURNAMENT_AT = 3.0
KILL_AT = 7.0
# How long Redis keeps a dead worker's unacknowledged task before handing it out again
# (CELERY_VISIBILITY_TIMEOUT; production 3600 s, where the sweeps are the faster path).
VISIBILITY_SECONDS = 10
RECOVERY_SECONDS = 60.0


@pytest.fixture
def on_postgresql_and_redis() -> None:
    if connection.vendor != "postgresql" or not settings.CELERY_BROKER_URL.startswith("redis"):
        pytest.skip("several machines share PostgreSQL and Redis (CI runs them)")


# --- The machines -------------------------------------------------------------------------


def family_queues(family: str) -> list[str]:
    """The queues of config/settings.py for a test queue family (ADAPTOID_TEST_QUEUE)."""
    return [family] + [
        f"{family}-{queue}" for queue in settings.TASK_QUEUES if queue != "maintenance"
    ]


def queued_messages(queues: list[str]) -> int:
    with celery_app.connection_for_write() as conn:
        return sum(
            conn.default_channel.queue_declare(queue=name, passive=False).message_count
            for name in queues
        )


def send_beat_task(name: str, family: str) -> None:
    """Send a periodic task by name, as beat does, to this family's queue of its kind."""
    # The routes name this session's queues ("<session>", "<session>-<kind>").
    session = settings.CELERY_TASK_DEFAULT_QUEUE
    routed = celery_app.amqp.router.route({}, name)["queue"].name
    celery_app.send_task(name, queue=family + routed.removeprefix(session))


@dataclass
class Node:
    port: int
    process: Any
    log: IO[bytes]

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> str:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(30)
        self.log.seek(0)
        return self.log.read().decode(errors="replace")


@pytest.fixture
def web_nodes(tmp_path: Path) -> Iterator[Callable[[dict[str, str]], Node]]:
    started: list[Node] = []

    def start(env: dict[str, str]) -> Node:
        port = free_port()
        log = (tmp_path / f"node-{port}.log").open("w+b")
        node_env = {**os.environ, **env, "GUNICORN_BIND": f"127.0.0.1:{port}"}
        node = Node(port, start_gunicorn(node_env, log), log)
        started.append(node)
        return node

    yield start
    for node in started:
        node.stop()


@pytest.fixture
def queue_family() -> Iterator[str]:
    """Queues of this test's own: the session's worker must not be a third machine."""
    family = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-nodes"
    yield family
    from kombu import Queue

    with celery_app.connection_for_write() as conn:
        for name in family_queues(family):
            queue = Queue(name)(conn.default_channel)
            queue.declare()
            queue.delete()


# --- The clients --------------------------------------------------------------------------


@dataclass
class Tally:
    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    retried: int = 0
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Cluster:
    """The load balancer a client sees: both nodes in turn; a request cut off (the node
    died under it) or refused is sent again to the other node."""

    def __init__(self, ports: list[int], tally: Tally) -> None:
        self.ports = ports
        self.tally = tally
        self.turn = 0

    def request(
        self, kind: str, method: str, path: str, token: str, body: dict[str, Any] | None = None
    ) -> tuple[int, Any]:
        payload = json.dumps(body).encode() if body is not None else None
        headers = {"Authorization": f"Bearer {token}", "Host": "127.0.0.1"}
        if payload is not None:
            headers["Content-Type"] = "application/json"
        for attempt in range(6):
            self.turn += 1
            port = self.ports[self.turn % len(self.ports)]
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                conn.request(method, path, payload, headers)
                answer = conn.getresponse()
                status, text = answer.status, answer.read()
            except ConnectionRefusedError:
                # Nothing listens there any more: the balancer takes the node out.
                if len(self.ports) > 1:
                    self.ports = [other for other in self.ports if other != port]
                continue
            except (OSError, http.client.HTTPException):
                # Cut off mid-request: it may have been done, or not; sent again.
                with self.tally.lock:
                    self.tally.retried += 1
                time.sleep(0.05 * attempt)
                continue
            finally:
                conn.close()
            with self.tally.lock:
                self.tally.statuses[(kind, status)] += 1
            return status, json.loads(text or b"null")
        raise AssertionError(f"{method} {path}: no node answered")


@dataclass
class Client:
    white_token: str
    black_token: str
    games: list[int]
    bot_game: int


def play(cluster: Cluster, client: Client, stop: float, seed: int) -> None:
    """Play the client's games, both sides (and its side of the game against the bot),
    a random legal turn each time, until `stop`."""
    rng = random.Random(seed)
    tokens = {"white": client.white_token, "black": client.black_token}
    game_ids = [*client.games, client.bot_game]
    while time.monotonic() < stop:
        moved = False
        for game_id in game_ids:
            status, game = cluster.request(
                "game", "GET", f"/api/v1/games/{game_id}", client.white_token
            )
            if status != 200:
                cluster.tally.failures.append(f"GET game {game_id}: {status} {game}")
                continue
            if game["status"] != "active":
                continue
            token = tokens[game["to_move"]]
            if game_id == client.bot_game and game["to_move"] == "black":
                continue  # the bot's turn: its reply comes from a worker
            turn = str(Position.from_string(game["position"]).random_turn(rng))
            body = {"ply": game["ply"] + 1, "turn": turn}
            status, answer = cluster.request(
                "turn", "POST", f"/api/v1/games/{game_id}/turns", token, body
            )
            # 201 stored; 200: a retry of a turn the dead node had stored already.
            if status not in (200, 201):
                cluster.tally.failures.append(f"turn {game_id} {body}: {status} {answer}")
            moved = True
        if not moved:
            time.sleep(0.1)


# --- The test -------------------------------------------------------------------------------


def _player(name: str, *, organiser: bool = False) -> tuple[Any, str]:
    user = account_services.register_account(username=name, password=PASSWORD)
    if organiser:
        user.user_permissions.add(Permission.objects.get(codename="organise_tournament"))
        user = get_user_model().objects.get(pk=user.pk)
    return user, account_services.create_token(user=user)


def _sent_message_ids(folder: Path) -> Counter[str]:
    ids: Counter[str] = Counter()
    for path in folder.glob("*.log"):
        ids.update(re.findall(r"^Message-ID: <([^@>]+)@", path.read_text(), flags=re.MULTILINE))
    return ids


def _wait(
    condition: Callable[[], Any],
    what: str,
    deadline: float,
    *,
    every: Callable[[], None] | None = None,
) -> None:
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        if every is not None:
            every()
        time.sleep(0.5)


def test_a_web_node_and_a_worker_killed_under_load_lose_nothing(
    on_postgresql_and_redis: None,
    celery_workers: Any,
    web_nodes: Callable[[dict[str, str]], Node],
    queue_family: str,
    tmp_path: Path,
) -> None:
    mail = tmp_path / "mail"
    mail.mkdir()
    env = {
        "ADAPTOID_TESTING": "1",
        "ADAPTOID_TEST_QUEUE": queue_family,
        "DATABASE_NAME": str(connection.settings_dict["NAME"]),
        "DEBUG": "0",
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(mail),
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_SECONDS),
        "BOT_SWEEP_AFTER_SECONDS": "5",
        "BOT_MATCH_WATCH_SECONDS": "3",
        "GUNICORN_WORKERS": "2",
        "LOG_LEVEL": "WARNING",
    }
    queues = ",".join(family_queues(queue_family))

    # The world: players with e-mail addresses, their games, a bot, a tournament to start.
    random_bot, greedy_bot = bots.ensure_builtin_bots()[:2]
    organiser, organiser_token = _player("node-organiser", organiser=True)
    clients, players = [], []
    for index in range(CLIENTS):
        (white, white_token), (black, black_token) = (
            _player(f"node-w{index}"),
            _player(f"node-b{index}"),
        )
        players += [white, black]
        own = [
            games.start_game(white=white, black=black, rated=False).pk
            for _ in range(GAMES_PER_CLIENT)
        ]
        bot_game = games.start_game(white=white, black=random_bot, rated=False).pk
        clients.append(Client(white_token, black_token, own, bot_game))
    cup = tournaments.create_tournament(
        organiser=organiser, name="Several machines cup", format="swiss", rounds=2, rated=False
    )
    for user in players:
        tournaments.join(tournament=cup, user=user)
    # Addresses only now: the e-mails of the set-up above would have been queued by this
    # process, for the session's queues (its worker, the wrong mailbox), not the nodes'.
    for user in players:
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])

    # The machines.
    nodes = [web_nodes(env), web_nodes(env)]
    workers = [celery_workers(pool="prefork", queues=queues, env=env) for _ in range(2)]
    for node in nodes:
        wait_until_listening(node.process, node.port)

    tally = Tally()
    ports = [node.port for node in nodes]
    organiser_cluster = Cluster(list(ports), tally)
    for white, black in ((random_bot, greedy_bot), (greedy_bot, random_bot)):
        status, body = organiser_cluster.request(
            "bot-match", "POST", "/api/v1/bot-matches", organiser_token,
            {"white": white.username, "black": black.username, "games": 2,
             "seconds_per_turn": 0.05, "rated": False},
        )  # fmt: skip
        assert status == 201, (status, body)

    begin = time.monotonic()
    stop = begin + LOAD_SECONDS
    threads = [
        threading.Thread(target=play, args=(Cluster(list(ports), tally), client, stop, index))
        for index, client in enumerate(clients)
    ]
    for thread in threads:
        thread.start()
    time.sleep(START_TOURNAMENT_AT)
    status, body = organiser_cluster.request(
        "start", "POST", f"/api/v1/tournaments/{cup.pk}/start", organiser_token
    )
    assert status == 202, (status, body)
    time.sleep(max(0.0, begin + KILL_AT - time.monotonic()))
    nodes[0].kill()
    workers[0].kill()
    killed = time.monotonic()
    # Its supervisor starts the dead worker again; Redis hands it the tasks the dead one
    # had taken but not acknowledged once the visibility timeout is over.
    time.sleep(max(0.0, killed + VISIBILITY_SECONDS + 1 - time.monotonic()))
    workers.append(celery_workers(pool="prefork", queues=queues, purge=False, env=env))
    for thread in threads:
        thread.join()
    assert not tally.failures, tally.failures[:10]

    # Beat's work (run now rather than at its period): bots and matches a lost message
    # left waiting, the tournament whose pairing message was lost, e-mails likewise.
    deadline = time.monotonic() + RECOVERY_SECONDS

    def bots_and_matches_done() -> bool:
        waiting_bot = [
            g for g in Game.objects.filter(status=Game.Status.ACTIVE) if bots.bot_to_act(g)
        ]
        running = BotMatch.objects.exclude(status=BotMatch.Status.FINISHED).exists()
        return not waiting_bot and not running and not queued_messages(family_queues(queue_family))

    def sweep() -> None:
        for task in ("bots.tasks.sweep_bots", "tournaments.tasks.tournament_heartbeat"):
            send_beat_task(task, queue_family)
        time.sleep(2)

    _wait(bots_and_matches_done, "the bots' replies and the matches", deadline, every=sweep)
    _wait(lambda: Pairing.objects.filter(round__tournament=cup).exists(), "round 1", deadline)
    # E-mails: a sender dead mid-send, or a message lost with its node, is found by
    # requeue_stale_emails after STALE_CLAIM; the clock is moved on instead of waited for
    # (nothing is in flight now: every queue is empty).
    time.sleep(2)
    past = timezone.now() - STALE_CLAIM - dt.timedelta(minutes=1)
    Notification.objects.filter(email_state=EmailState.PENDING).update(created=past)
    Notification.objects.filter(email_state=EmailState.SENDING).update(email_claimed=past)
    send_beat_task("notifications.tasks.requeue_stale_emails", queue_family)
    unsent = Q(email_state__in=[EmailState.PENDING, EmailState.SENDING])
    _wait(
        lambda: (
            not Notification.objects.filter(unsent).exists()
            and not queued_messages(family_queues(queue_family))
        ),
        "the e-mails",
        deadline,
    )
    time.sleep(1)  # room for a duplicate, were there one
    logs = [node.stop() for node in nodes]
    sent = _sent_message_ids(mail)
    print(
        f"statuses {sorted(tally.statuses.items())}, requests sent again {tally.retried}, "
        f"e-mails {sum(sent.values())}, games {Game.objects.count()}"
    )

    # No 5xx; every game replays; no ply twice.
    assert not [key for key in tally.statuses if key[1] >= 500], tally.statuses
    assert "Internal Server Error" not in logs[1], logs[1][-3000:]
    report = verify_games()
    assert report.ok, report.mismatches
    assert report.checked == Game.objects.count()
    assert not Turn.objects.values("game", "ply").annotate(n=Count("id")).filter(n__gt=1).exists()
    assert tally.statuses[("turn", 201)] > 50, tally.statuses

    # Both bot matches played out; the bot answered in every game against it.
    for match in BotMatch.objects.all():
        assert match.status == BotMatch.Status.FINISHED
        assert match.entries.filter(game__status=Game.Status.FINISHED).count() == 2
    for client in clients:
        game = Game.objects.get(pk=client.bot_game)
        assert game.status == Game.Status.FINISHED or bots.bot_to_act(game) is None

    # The tournament: round 1 paired once, every player on exactly one board.
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING and cup.current_round == 1
    pairings = list(Pairing.objects.filter(round__tournament=cup))
    seated = Counter(
        participant
        for pairing in pairings
        for participant in (pairing.white_id, pairing.black_id)
        if participant
    )
    assert sorted(seated) == sorted(cup.participants.values_list("id", flat=True))
    assert set(seated.values()) == {1} and len(pairings) == len(players) // 2
    assert all(pairing.game_id for pairing in pairings)

    # Every e-mail queued was sent exactly once.
    emailed = Notification.objects.filter(email_state=EmailState.SENT)
    assert not Notification.objects.filter(email_state=EmailState.FAILED).exists()
    assert sorted(sent) == sorted(
        f"notification.{pk}" for pk in emailed.values_list("pk", flat=True)
    )
    assert set(sent.values()) == {1}, [key for key, count in sent.items() if count > 1]
    assert len(sent) >= 2 * len(players)  # the tournament's start and its round at least
