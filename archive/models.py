"""The .agn import as a job (archive.imports), and the content hash of every imported game.

An upload becomes an ``ImportJob`` (its text is kept in the row: web and worker share
the database, not a file system) that a Celery worker runs in chunks, by slices of a job
of the fair queue (core.jobs, kind ``import``, ``subject_id`` this row's id).  Each imported
game has an ``ImportedGame`` row whose ``content_hash`` is unique: the same game
uploaded twice, even by two jobs at once, is stored once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ImportJob(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="import_jobs",
        verbose_name=_("owner"),
    )
    file_name = models.CharField(_("file name"), max_length=200, blank=True)
    text = models.TextField(_("uploaded text"))  # "" once read
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    # The file's games as read (archive.imports: what the import needs of each record),
    # kept from the first slice to the last so that the text is read once; then emptied.
    records = models.JSONField(_("games as read"), null=True, blank=True)
    # Games in the file (known once the worker has read it) and games handled so far:
    # the next run resumes after `processed` (it is committed with each chunk's games).
    total = models.PositiveIntegerField(_("games in the file"), null=True, blank=True)
    processed = models.PositiveIntegerField(_("games handled"), default=0)
    stored = models.PositiveIntegerField(_("games stored"), default=0)
    duplicates = models.PositiveIntegerField(_("games already there"), default=0)
    rejected = models.PositiveIntegerField(_("games rejected"), default=0)
    # One entry per handled game, in file order (archive.imports.ReportEntry.as_json);
    # reasons are kept as codes and English engine texts, translated when shown.
    report = models.JSONField(_("report"), default=list, blank=True)
    # Why the whole job failed (a code of archive.imports.JOB_ERRORS and its values).
    error_code = models.CharField(_("error"), max_length=40, blank=True)
    error_params = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("import job")
        verbose_name_plural = _("import jobs")
        indexes = [models.Index(fields=["owner", "status"], name="archive_importjob_owner_st")]

    def __str__(self) -> str:
        return f"import {self.pk} ({self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE


class ImportedGame(models.Model):
    """The content hash of an imported game (archive.imports.content_hash)."""

    content_hash = models.CharField(max_length=64, unique=True)
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="import_entry")
    job = models.ForeignKey(
        ImportJob, on_delete=models.SET_NULL, null=True, blank=True, related_name="games"
    )

    def __str__(self) -> str:
        return f"{self.content_hash[:12]} → game {self.game_id}"
