"""The fair job queue's rows (core.jobs): one :class:`Job` per piece of work someone asked
for in bulk (an analysis-board evaluation, a game analysis, an .agn import), and one
:class:`JobQueue` row per kind, the lock that every change of a kind's jobs takes first.

A job's domain row (``analysis.GameAnalysis``, ``archive.ImportJob``) keeps what the
work found; the scheduling facts (its place, its slot, its lease) live here only.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class JobQueue(models.Model):
    """One row per kind of job: ``select_for_update()`` on it serialises the caps and
    the dispatch of that kind (SQLite's IMMEDIATE transactions serialise anyway)."""

    kind = models.CharField(_("kind"), max_length=40, primary_key=True)
    # The round of the last job started (core.jobs: the fair order's clock).
    clock = models.BigIntegerField(_("clock"), default=0)

    class Meta:
        verbose_name = _("job queue")
        verbose_name_plural = _("job queues")

    def __str__(self) -> str:
        return str(self.kind)


class Job(models.Model):
    class State(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    kind = models.CharField(_("kind"), max_length=40)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("owner"),
    )
    # Whose turn it is in the round robin: "user:<id>", or "anonymous" for every visitor
    # (visitors share one budget).
    owner_key = models.CharField(_("owner key"), max_length=40)
    state = models.CharField(_("state"), max_length=8, choices=State.choices, default=State.WAITING)
    # The domain row the job works on (a GameAnalysis, an ImportJob); null when the job
    # carries all it needs in `payload` (an evaluation).
    subject_id = models.BigIntegerField(_("subject"), null=True, blank=True)
    # The id a client polls (GET /api/v1/evaluations/<public_id>).
    public_id = models.UUIDField(_("public id"), default=uuid.uuid4, unique=True, editable=False)
    payload = models.JSONField(_("payload"), default=dict, blank=True)
    result = models.JSONField(_("result"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=500, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # Its turn in the round robin between owners (core.jobs), then when it last entered
    # `waiting`: jobs start in that order.
    round = models.BigIntegerField(_("round"), default=0)
    ready_at = models.DateTimeField(_("ready at"))
    # Slices sent to a worker so far; each message carries its number, so a message that
    # arrives late (its slice was given up and sent again) finds another number and does
    # nothing.
    slices = models.PositiveIntegerField(_("slices"), default=0)
    dispatched = models.DateTimeField(_("dispatched"), null=True, blank=True)
    started = models.DateTimeField(_("started"), null=True, blank=True)
    # The running slice's last sign of life; null until a worker takes the slice.
    heartbeat = models.DateTimeField(_("heartbeat"), null=True, blank=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)
    # Slices lost (a dead worker) or failed (an exception): at the kind's maximum, failed.
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)

    class Meta:
        verbose_name = _("job")
        verbose_name_plural = _("jobs")
        indexes = [
            models.Index(
                fields=["kind", "state", "round", "ready_at"], name="job_kind_state_order"
            ),
            models.Index(fields=["kind", "owner_key", "state"], name="job_kind_owner_state"),
            models.Index(fields=["kind", "subject_id"], name="job_kind_subject"),
            models.Index(fields=["state", "finished"], name="job_state_finished"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} job {self.pk} ({self.state})"
