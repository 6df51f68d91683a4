from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    """Shared foundations (no models): domain errors, the API's error handling and
    pagination, and the Celery task base class."""

    name = "core"
    verbose_name = _("Core")
