"""Fixtures shared by every app's tests.

* ``celery_worker_process`` — a REAL ``celery -A config worker`` subprocess on the
  tests' database and broker (see its docstring).
* ``api`` / ``make_player`` / ``alice`` / ``bob`` / ``stranger`` — API clients
  authenticated with real bearer tokens.
* With ``CI_REQUIRE_SERVICES=1`` (set by .ci/run) every test fails unless the run
  really uses PostgreSQL, the Redis cache and the Redis broker.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

BASE_DIR = Path(__file__).resolve().parent


# --- Services -------------------------------------------------------------------------


@pytest.fixture(scope="session", autouse=True)
def _require_real_services() -> None:
    """In CI, prove the suite runs on PostgreSQL and Redis, not the embedded fallbacks."""
    if os.environ.get("CI_REQUIRE_SERVICES") != "1":
        return
    from django.conf import settings
    from django.core.cache import cache
    from django.db import connection

    from config.celery import app

    # The database tests themselves connect; here the configured vendor is what counts.
    assert connection.vendor == "postgresql", f"database is {connection.vendor}, not postgresql"
    backend = settings.CACHES["default"]["BACKEND"]
    assert backend.endswith("RedisCache"), f"cache backend is {backend}"
    cache.set("ci-probe", "ok", 5)
    assert cache.get("ci-probe") == "ok", "the Redis cache does not store values"
    assert app.conf.broker_url.startswith("redis://"), f"broker is {app.conf.broker_url}"
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=5)


@pytest.fixture(scope="session", autouse=True)
def _drop_own_task_queue() -> Iterator[None]:
    """At the end, delete this session's own task queues and what is left in them (config/settings.py)."""
    yield
    from kombu import Queue
    from kombu.exceptions import OperationalError

    from config.celery import app

    # No broker running: nothing was queued there either.
    with contextlib.suppress(OperationalError, OSError), app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=5)
        for name in session_queues():
            queue = Queue(name)(conn.default_channel)
            queue.declare()  # known to this channel, so that its bindings go too
            queue.delete()


def session_queues() -> list[str]:
    """Every queue this session's tasks may go to: its default queue and, prefixed with
    its name, each queue of config/settings.py's routes."""
    from django.conf import settings

    return sorted({settings.CELERY_TASK_DEFAULT_QUEUE, *settings.TASK_QUEUE_NAMES.values()})


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    # Throttle counters live in the cache: each test starts with none.
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(scope="session", autouse=True)
def _flush_waits_for_a_busy_worker() -> Iterator[None]:
    """Between transactional tests Django empties the tables (TRUNCATE).  The session's
    real Celery worker may still be finishing a task a test queued (a rating, an
    e-mail); PostgreSQL then breaks the lock cycle by failing one side, sometimes the
    TRUNCATE.  Ours is retried in a savepoint of its own (Django's public
    execute_wrapper), so the flush waits for the worker instead of failing the test."""
    from django.db import OperationalError, connection, transaction

    def retry_truncate(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if connection.vendor != "postgresql" or not sql.startswith("TRUNCATE"):
            return execute(sql, params, many, context)
        for attempt in range(20):
            try:
                with transaction.atomic():
                    return execute(sql, params, many, context)
            except OperationalError as exc:
                if "deadlock detected" not in str(exc) or attempt == 19:
                    raise
                time.sleep(0.25)
        return None  # not reached

    with connection.execute_wrapper(retry_truncate):
        yield


# --- A real Celery worker -----------------------------------------------------------------


@dataclass
class WorkerProcess:
    process: subprocess.Popen[str]
    output: list[str]

    def log(self) -> str:
        return "".join(self.output)

    def kill(self) -> None:
        """SIGKILL the worker and every process it started (a machine dying, no goodbye)."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(10)

    def stop(self) -> None:
        """Warm shutdown (SIGTERM), then SIGKILL if it does not end within 15 s."""
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.kill()


def start_celery_worker(
    *,
    app: str = "config",
    pool: str = "solo",
    queues: str | None = None,
    purge: bool = True,
    env: dict[str, str] | None = None,
) -> WorkerProcess:
    """Start ``celery -A <app> worker`` on the tests' database and broker; wait until ready.

    The worker gets its own process group (``kill()`` reaches a prefork pool's
    children too).  ``purge`` drops the waiting tasks first: a restarted worker
    that must pick up a redelivered task passes ``purge=False``.
    """
    from django.conf import settings
    from django.db import connection

    worker_env = dict(os.environ)
    worker_env.update(
        ADAPTOID_TESTING="1",
        # This session's own queue (config/settings.py): another session's worker on the
        # same broker can neither purge nor take these tasks.
        ADAPTOID_TEST_QUEUE=settings.CELERY_TASK_DEFAULT_QUEUE,
        DATABASE_NAME=str(connection.settings_dict["NAME"]),
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONUNBUFFERED="1",
    )
    worker_env.update(env or {})  # the caller's values win (e.g. a queue family of its own)
    command = [
        sys.executable, "-m", "celery", "-A", app, "worker",
        f"--pool={pool}", "--concurrency=1", "--loglevel=INFO",
        "--without-gossip", "--without-mingle", "--without-heartbeat",
        "--hostname", f"test-{uuid.uuid4().hex[:8]}@%h",
    ]  # fmt: skip
    if purge:
        command.append("--purge")
    # By default a worker reads every queue of the session (config/settings.py routes).
    command += ["--queues", queues or ",".join(session_queues())]
    process = subprocess.Popen(
        command,
        cwd=BASE_DIR,
        env=worker_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    output: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            output.append(line)
            if " ready." in line:
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + 60
    while not ready.is_set() and process.poll() is None and time.monotonic() < deadline:
        ready.wait(0.2)
    worker = WorkerProcess(process, output)
    if not ready.is_set():
        worker.kill()
        pytest.fail(f"celery worker did not start:\n{worker.log()}")
    return worker


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup: Any, django_db_blocker: Any) -> Iterator[WorkerProcess]:
    """Start a real ``celery -A config worker`` for the whole session; kill it at the end.

    The worker runs in its own process on the same test database (its name is
    passed as ``DATABASE_NAME``: the SQLite test file ``var/test-db.sqlite3`` or
    PostgreSQL's ``test_<name>``) and the same broker (``var/test-broker/`` or
    ``REDIS_URL``) as the tests; waiting tasks are purged at start.  Its output is
    on ``worker.log()``.

    Usage — the test MUST be transactional, or the worker cannot see its rows and
    ``transaction.on_commit`` never fires::

        @pytest.mark.worker
        @pytest.mark.django_db(transaction=True)
        def test_something(celery_worker_process):
            result = my_task.delay(obj.pk).get(timeout=30)   # result backend is set up

    For a task queued by a service (sent after its commit), poll the
    database for its effect (with a deadline) instead of sleeping blindly.
    """
    worker = start_celery_worker()
    try:
        yield worker
    finally:
        # Before the test database is dropped (this fixture depends on django_db_setup).
        worker.stop()


@pytest.fixture
def celery_workers(django_db_setup: Any) -> Iterator[Callable[..., WorkerProcess]]:
    """Factory: ``start(**options)`` → a worker (see start_celery_worker) to kill or restart.

    Every worker started is stopped at the end of the test.  To keep the
    session's ``celery_worker_process`` from taking the tasks, route them to a
    queue of the test's own and pass it as ``queues``.
    """
    started: list[WorkerProcess] = []

    def start(**options: Any) -> WorkerProcess:
        worker = start_celery_worker(**options)
        started.append(worker)
        return worker

    try:
        yield start
    finally:
        for worker in started:
            worker.stop()


# --- Players and API clients --------------------------------------------------------------


@dataclass
class Player:
    user: Any
    token: str
    client: Any  # rest_framework.test.APIClient with the bearer token set

    @property
    def username(self) -> str:
        return self.user.username


PASSWORD = "correct-horse-battery-staple"


@pytest.fixture
def api() -> Any:
    """An anonymous API client."""
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def make_player(db: Any) -> Callable[[str], Player]:
    """make_player("carol") → Player with a real hashed token and an authenticated client."""
    from rest_framework.test import APIClient

    from accounts import services as account_services

    def make(username: str) -> Player:
        user = account_services.register_account(username=username, password=PASSWORD)
        token = account_services.create_token(user=user)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        return Player(user, token, client)

    return make


@pytest.fixture
def alice(make_player: Callable[[str], Player]) -> Player:
    return make_player("alice")


@pytest.fixture
def bob(make_player: Callable[[str], Player]) -> Player:
    return make_player("bob")


@pytest.fixture
def stranger(make_player: Callable[[str], Player]) -> Player:
    return make_player("mallory")


# --- A real browser -----------------------------------------------------------------------

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (one per test module): the browser tests."""
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
        pytest.skip(f"{CHROMIUM} is not installed")
    # Playwright's sync API runs an event loop in this thread; the ORM calls the tests
    # make in between are still plain synchronous code.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()
