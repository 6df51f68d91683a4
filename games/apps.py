from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from core.api.errors import register_statuses
        from games.errors import HTTP_STATUS

        register_statuses(HTTP_STATUS)
        # Vacation stops and restarts game clocks (receivers of clocks.signals).
        from games import timekeeping  # noqa: F401
