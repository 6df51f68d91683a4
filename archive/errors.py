"""Domain errors of the archive's import (statuses registered in archive.apps)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import status

from core.errors import DomainError


class TooManyImportJobs(DomainError):
    """429: the user's imports already waiting or running reach the limit."""

    code = "too_many_imports"
    default_message = _("You have too many imports running; wait until one finishes.")


class ImportFileRefused(DomainError):
    """400: the upload is too large, not UTF-8 or not text (nothing is queued)."""

    code = "import_file_refused"
    default_message = _("The file cannot be imported.")


HTTP_STATUS: dict[type[DomainError], int] = {
    TooManyImportJobs: status.HTTP_429_TOO_MANY_REQUESTS,
    ImportFileRefused: status.HTTP_400_BAD_REQUEST,
}
