"""Every periodic task and every task of our apps runs through a real broker and worker.

A task whose options Celery refuses never leaves the sender: ``sweep_import_jobs`` had
``time_limit=60`` and inherited ``CELERY_TASK_SOFT_TIME_LIMIT=100``, so beat logged
"soft_time_limit must be less than or equal to time_limit" every 5 minutes and the
sweep never ran, while its test called the function directly.  These tests go the
whole way instead, generic over the beat schedule and the task registry:

* a real ``celery beat`` (every entry due at once: ``config.tests.due_scheduler``) and a
  real worker; each entry's task must finish, as the result backend says;
* every registered task of our apps sent with its own options (routes, limits) and
  harmless arguments (ids that do not exist): each is accepted and run by a worker;
* the limits themselves: soft <= hard, both below the broker's visibility timeout.

Beat and worker use a queue family of their own (ADAPTOID_TEST_QUEUE), so the session's
worker never takes these tasks.
"""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
import threading
import time
import types
import typing
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from celery import Task
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded, WorkerLostError
from celery.result import AsyncResult
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app

BASE_DIR = Path(__file__).resolve().parents[2]
OUR_APPS = tuple(f"{name}." for name in settings.INSTALLED_APPS if "." not in name)
# An id no row has (and that fits a 32-bit column).
MISSING_ID = 2_000_000_000


def our_tasks() -> dict[str, Task]:
    """Every task our apps register, as a worker sees them (not Celery's own)."""
    celery_app.loader.import_default_modules()
    return {
        name: task
        for name, task in sorted(celery_app.tasks.items())
        if not name.startswith("celery.") and task.__module__.startswith(OUR_APPS)
    }


# --- Limits ------------------------------------------------------------------------------


def test_every_task_has_limits_celery_accepts_below_the_visibility_timeout() -> None:
    """The limits as the worker applies them (the task's own, else the settings'): a soft
    limit above the hard one is refused when sent; a task running past the broker's
    visibility timeout is handed out a second time while it still runs (acks_late)."""
    tasks = our_tasks()
    assert len(tasks) >= 20, sorted(tasks)
    visibility = settings.BROKER_VISIBILITY_TIMEOUT
    wrong = {
        name: (task.soft_time_limit, task.time_limit)
        for name, task in tasks.items()
        if not (task.time_limit and task.soft_time_limit)
        or task.soft_time_limit > task.time_limit
        or task.time_limit >= visibility
    }
    assert wrong == {}, f"(soft, hard) limits against a visibility timeout of {visibility} s"


# --- A queue family of the test's own --------------------------------------------------------


@pytest.fixture
def queue_family() -> str:
    return f"every-{uuid.uuid4().hex[:8]}"


def family_queues(family: str) -> list[str]:
    """config/settings.py's queues for ADAPTOID_TEST_QUEUE=family (maintenance is the family)."""
    return [family] + [
        f"{family}-{queue}" for queue in settings.TASK_QUEUES if queue != "maintenance"
    ]


def family_queue_of(name: str, family: str) -> str:
    """The queue of the family that the routes give the task `name`."""
    routed = celery_app.amqp.router.route({}, name)["queue"].name
    return family + routed.removeprefix(settings.CELERY_TASK_DEFAULT_QUEUE)


def app_env(family: str) -> dict[str, str]:
    """A process of the app on the tests' database and broker, in the given queue family."""
    return {
        **os.environ,
        "ADAPTOID_TESTING": "1",
        "ADAPTOID_TEST_QUEUE": family,
        "DATABASE_NAME": str(connection.settings_dict["NAME"]),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONUNBUFFERED": "1",
    }


def finished(task_id: str, seconds: float = 120) -> AsyncResult:
    result = AsyncResult(task_id, app=celery_app)
    result.get(timeout=seconds, propagate=False)
    return result


# --- Beat ---------------------------------------------------------------------------------


class Beat:
    """``celery beat`` in a process group of its own; its log collected line by line."""

    def __init__(self, family: str) -> None:
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=DEBUG",
             "--scheduler", "config.tests.due_scheduler:EveryEntryDueScheduler"],
            cwd=BASE_DIR, env=app_env(family), stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, start_new_session=True,
        )  # fmt: skip
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)

    def log(self) -> str:
        return "".join(self.lines)

    def sent(self) -> dict[str, str | None]:
        """Entry name → id of the message beat sent (None: beat could not send it)."""
        sent: dict[str, str | None] = {}
        entry = None
        for line in list(self.lines):
            due = re.search(r"Sending due task (\S+) \((\S+)\)", line)
            if due:
                entry = due.group(1)
                sent[entry] = None
            elif entry is not None and (done := re.search(r" sent\. id->(\S+)", line)):
                sent[entry], entry = done.group(1), None
            elif entry is not None and "Message Error" in line:
                entry = None
        return sent

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait(10)


@pytest.fixture
def beat_of() -> Iterator[Any]:
    started: list[Beat] = []

    def start(family: str) -> Beat:
        beat = Beat(family)
        started.append(beat)
        return beat

    yield start
    for beat in started:
        beat.stop()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_beat_sends_every_periodic_task_and_a_worker_finishes_each(
    celery_workers: Any, beat_of: Any, queue_family: str
) -> None:
    schedule = settings.CELERY_BEAT_SCHEDULE
    worker = celery_workers(
        pool="prefork",
        queues=",".join(family_queues(queue_family)),
        env={"ADAPTOID_TEST_QUEUE": queue_family},
    )
    beat = beat_of(queue_family)
    deadline = time.monotonic() + 90
    while not set(schedule) <= set(beat.sent()) or None in [beat.sent()[name] for name in schedule]:
        failed = "Message Error" in beat.log() or beat.process.poll() is not None
        assert not failed and time.monotonic() < deadline, beat.log()[-6000:]
        time.sleep(0.5)
    sent = beat.sent()
    states = {name: finished(str(sent[name])).state for name in schedule}
    assert states == dict.fromkeys(schedule, "SUCCESS"), worker.log()[-6000:]


# --- Every task of our apps -----------------------------------------------------------------


HARMLESS: dict[Any, Any] = {int: MISSING_ID, float: 0.0, str: "", bool: False, list: [], dict: {}}


def harmless_arguments(task: Task) -> dict[str, Any]:
    """Values for the task's required parameters that name nothing: ids no row has, empty
    strings and lists.  Parameters with a default keep it."""
    hints = typing.get_type_hints(task.run)
    values: dict[str, Any] = {}
    for name, parameter in inspect.signature(task.run).parameters.items():
        if parameter.default is not inspect.Parameter.empty:
            continue
        hint = hints[name]
        if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
            hint = next(arg for arg in typing.get_args(hint) if arg is not type(None))
        kind = typing.get_origin(hint) or hint
        assert kind in HARMLESS, f"{task.name}: no harmless value for {name}: {hint}"
        values[name] = HARMLESS[kind]
    return values


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_every_task_of_our_apps_is_accepted_and_run_by_a_worker(
    celery_workers: Any, queue_family: str
) -> None:
    """Run means the task's own code ran: it returned, or it raised its own error about
    the missing row (a tournament task does); not a time limit, not a lost worker, not a
    message nobody took."""
    worker = celery_workers(
        pool="prefork",
        queues=",".join(family_queues(queue_family)),
        env={"ADAPTOID_TEST_QUEUE": queue_family},
    )
    sent = {}
    for name, task in our_tasks().items():
        # The task's own options (limits, expiry), to its own kind of queue.
        result = task.apply_async(
            kwargs=harmless_arguments(task), queue=family_queue_of(name, queue_family)
        )
        sent[name] = result.id
    outcomes = {}
    for name, task_id in sent.items():
        result = finished(task_id)
        error = result.result if result.failed() else None
        outcomes[name] = (
            result.state in ("SUCCESS", "FAILURE")
            and not isinstance(error, (TimeLimitExceeded, SoftTimeLimitExceeded, WorkerLostError))
            and f"Task {name}[{task_id}] received" in worker.log()
        ) or f"{result.state}: {error!r}"
    assert outcomes == dict.fromkeys(sent, True), worker.log()[-6000:]
