from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from core.api.errors import register_statuses
        from tournaments import receivers  # noqa: F401  (connects the game-finished receiver)
        from tournaments.errors import HTTP_STATUS

        # One exception handler for the whole API: it learns our errors' statuses here.
        register_statuses(HTTP_STATUS)
