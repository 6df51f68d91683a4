"""Helpers shared by every app's tests (fixtures live in the root conftest.py)."""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import pytest
from django.db import connection

T = TypeVar("T")


def wait_for(check: Callable[[], Any], worker: Any, timeout: float = 60.0) -> Any:
    """Poll the database until `check()` is truthy (the worker commits in its own process);
    fail with the end of the worker's log when it never is."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"timed out; worker log:\n{worker.log()[-4000:]}")


def at_once(calls: Sequence[Callable[[], T]], timeout: float = 60.0) -> list[T]:
    """Run the calls in threads released together (a race between requests or jobs) and
    return their results, in the order they finished.  Each thread closes its own
    database connection; an exception in any of them fails the test."""
    barrier = threading.Barrier(len(calls))
    results: list[T] = []
    failures: list[BaseException] = []

    def run(call: Callable[[], T]) -> None:
        try:
            barrier.wait(timeout=30)
            results.append(call())
        except Exception as exc:  # noqa: BLE001  (a thread must report any failure)
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    assert not failures, failures
    return results


@dataclass(frozen=True)
class QueueFamily:
    """Task queues of a test's own: config/settings.py's queues named after ``name``
    (``<name>`` for maintenance, ``<name>-<queue>`` for the others), which only workers
    started with ``env`` read.  A worker sends the tasks it queues (a job's next slice)
    by its own settings, so both sides must name the same family."""

    name: str

    @property
    def env(self) -> dict[str, str]:
        return {"ADAPTOID_TEST_QUEUE": self.name}

    def queue(self, kind: str) -> str:
        return self.name if kind == "maintenance" else f"{self.name}-{kind}"


def _set_routes(routes: Any) -> None:
    from celery import current_app as app  # the project's (config.celery), set as current

    app.conf.task_routes = routes
    app.amqp.flush_routes()
    app.amqp.__dict__.pop("router", None)  # a cached_property: rebuilt from the routes


@contextmanager
def queue_family(prefix: str = "family") -> Iterator[QueueFamily]:
    """Route this process's tasks to a new :class:`QueueFamily` (as config/settings.py
    routes them, each to the family's queue of its kind); on leaving, route them back and
    delete the family's queues."""
    import kombu
    from celery import current_app as app  # the project's (config.celery), set as current
    from django.conf import settings
    from kombu.exceptions import OperationalError

    family = QueueFamily(f"{prefix}-{uuid.uuid4().hex[:8]}")
    session = settings.CELERY_TASK_DEFAULT_QUEUE
    previous = app.conf.task_routes
    _set_routes(
        {
            pattern: {"queue": family.name + route["queue"].removeprefix(session)}
            for pattern, route in settings.CELERY_TASK_ROUTES.items()
        }
    )
    try:
        yield family
    finally:
        _set_routes(previous)
        with contextlib.suppress(OperationalError, OSError), app.connection_for_write() as conn:
            for kind in settings.TASK_QUEUES:
                queue = cast(Any, kombu).Queue(family.queue(kind))(conn.default_channel)
                queue.declare()
                queue.delete()
