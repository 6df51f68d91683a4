from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    """Shared foundations: domain errors, the API's error handling and pagination, the
    Celery task base class, and the fair job queue (core.jobs, its two models)."""

    name = "core"
    verbose_name = _("Core")
