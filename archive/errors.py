"""Domain errors of the archive's import (statuses registered in archive.apps); a user's
or the site's imports at their cap are core.jobs' ``Busy`` (code ``busy``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import status

from core.errors import DomainError


class ImportFileRefused(DomainError):
    """400: the upload is too large, not UTF-8 or not text (nothing is queued)."""

    code = "import_file_refused"
    default_message = _("The file cannot be imported.")


HTTP_STATUS: dict[type[DomainError], int] = {
    ImportFileRefused: status.HTTP_400_BAD_REQUEST,
}
