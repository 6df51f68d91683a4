"""Helpers shared by every app's tests (fixtures live in the root conftest.py)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

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
