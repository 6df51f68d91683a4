from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClocksConfig(AppConfig):
    name = "clocks"
    verbose_name = _("Correspondence clocks")

    def ready(self) -> None:
        from clocks.errors import HTTP_STATUS
        from core.api.errors import register_statuses

        register_statuses(HTTP_STATUS)
