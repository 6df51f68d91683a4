"""Helpers shared by every app's tests (fixtures live in the root conftest.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest


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
