from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BotsConfig(AppConfig):
    name = "bots"
    verbose_name = _("Bots")

    def ready(self) -> None:
        # Challenges to a built-in bot, games where one must act, finished bot-match
        # games → bot tasks after the commit (games.signals).
        from bots import receivers  # noqa: F401
        from bots.errors import HTTP_STATUS
        from core.api.errors import register_statuses

        register_statuses(HTTP_STATUS)
