from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArchiveConfig(AppConfig):
    """Finished games out and in: .agn/.ndjson/.zip exports, .agn import, the whole
    database as JSON Lines, and the replay check of stored games."""

    name = "archive"
    verbose_name = _("Archive")

    def ready(self) -> None:
        from archive.errors import HTTP_STATUS
        from archive.imports import register_jobs
        from core.api.errors import register_statuses

        register_statuses(HTTP_STATUS)
        register_jobs()  # the import kind of core.jobs
