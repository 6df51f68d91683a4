from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        # A rated game finished → the rate_game task, after the commit (games.signals).
        from ratings import receivers  # noqa: F401
