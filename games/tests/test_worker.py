"""A real Celery worker process runs the app's tasks on the tests' database."""

from __future__ import annotations

import pytest

from games.tasks import ping

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_worker_answers_ping(celery_worker_process) -> None:
    assert ping.delay().get(timeout=30) == "pong"
