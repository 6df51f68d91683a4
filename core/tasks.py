"""The base class of every Celery task of the platform (``config.celery`` sets it), and
the sweep of the fair job queues (core.jobs).

Rules for every task: take ids, never model instances; be idempotent (a redelivered
message, with acks_late, must do no harm); have a time limit and bounded retries.
"""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task
from django.db import transaction


class AfterCommitTask(Task):
    """A task queued inside a transaction is sent when that transaction commits.

    A message sent before the commit could be handled before its rows are visible, or
    for a change that is then rolled back; with this base class no caller has to
    remember ``transaction.on_commit``: ``task.delay(…)`` is always safe.

    Inside an atomic block the call returns None (the message does not exist yet), so
    nobody can wait for the result: none is stored (with the Redis result backend, a
    kept result also costs a subscription per message in the sending process).
    Outside one, the call is sent at once and returns the usual ``AsyncResult``.
    """

    def apply_async(
        self,
        args: Any = None,
        kwargs: Any = None,
        task_id: str | None = None,
        producer: Any = None,
        link: Any = None,
        link_error: Any = None,
        shadow: str | None = None,
        **options: Any,
    ) -> Any:
        def send() -> Any:
            return super(AfterCommitTask, self).apply_async(
                args, kwargs, task_id, producer, link, link_error, shadow, **options
            )

        if transaction.get_connection().in_atomic_block:
            options.setdefault("ignore_result", True)
            # robust: the change is committed; a broker that cannot take the message
            # must not turn that success into an error (logged; the sweepers queue
            # such work again: bots, clocks, tournaments, e-mails).
            transaction.on_commit(send, robust=True)
            return None
        return send()

    def delay(self, *args: Any, **kwargs: Any) -> Any:
        return self.apply_async(args, kwargs)


@shared_task(  # type: ignore[untyped-decorator]  # Celery: no hints
    name="core.tasks.sweep_jobs",
    acks_late=True,
    # Beat sends it every minute: it must end well before the next one and far below
    # the broker's visibility timeout; both limits explicit (soft below hard).
    time_limit=50,
    soft_time_limit=45,
    max_retries=0,
)
def sweep_jobs() -> dict[str, int]:
    """Beat: give back the job slices whose worker died or whose message was lost, start
    waiting jobs in free slots, delete old finished jobs (core.jobs.sweep)."""
    from core import jobs

    return jobs.sweep()
