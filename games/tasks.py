"""Celery tasks of the games app, and the one way to queue any task: ``enqueue``.

Rules for every task here (and in other apps): take ids, never model
instances; be idempotent (a redelivered message, with acks_late, must do no
harm); have a time limit and bounded retries.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from django.db import transaction
from django.db.models import Model

logger = logging.getLogger(__name__)


def enqueue(task: Task, *args: Any, **kwargs: Any) -> None:
    """Queue `task` once the current transaction commits (at once outside one).

    A task queued before commit could run before its rows are visible, or for a
    change that is then rolled back.  Nobody waits for these tasks' results: none is
    stored (with the Redis result backend, a task whose result is kept also costs a
    subscription per message in the process that sent it).
    """
    transaction.on_commit(lambda: task.apply_async(args, kwargs, ignore_result=True))


def enqueue_with_key(task: Task, instance: Model) -> None:
    """Like ``enqueue``, with the instance's primary key read at the commit: a row in a
    ``games.compiled.atomic_batch`` gets its key only when the batch is sent."""
    transaction.on_commit(lambda: task.apply_async((instance.pk,), ignore_result=True))


def enqueue_later(task: Task, seconds: float, *args: Any) -> None:
    """Like ``enqueue``, with the task due `seconds` after the commit."""
    transaction.on_commit(lambda: task.apply_async(args, countdown=seconds, ignore_result=True))


@shared_task(acks_late=True, time_limit=10, soft_time_limit=8, max_retries=3, default_retry_delay=2)
def ping() -> str:
    """Liveness probe of the worker: answers "pong"."""
    return "pong"
