"""The project's Celery app with every task on one queue, as before the queues of #14.4.

For ``bench/queue_latency.py --layouts single`` only: ``celery -A bench.celery_one_queue worker``.
"""

from __future__ import annotations

from config.celery import app

__all__ = ["app"]

app.conf.task_routes = {}  # every task to the default queue (config/settings.py)
