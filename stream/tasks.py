"""Celery tasks of the event stream: pruning old rows (beat)."""

from __future__ import annotations

import datetime

from celery import Task, shared_task
from django.conf import settings
from django.utils import timezone


@shared_task(bind=True, acks_late=True, time_limit=120, soft_time_limit=100, max_retries=0)
def prune_events(self: Task) -> int:
    """Beat task: delete stream events older than EVENT_RETENTION_HOURS; returns how many.

    A client that reconnects gets the open challenges and running games again
    (stream.events.snapshot_lines), so an old line is never needed.
    """
    from stream.models import Event

    retention = datetime.timedelta(hours=getattr(settings, "EVENT_RETENTION_HOURS", 24))
    pruned, _by_model = Event.objects.filter(created__lt=timezone.now() - retention).delete()
    return pruned
