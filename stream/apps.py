from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StreamConfig(AppConfig):
    name = "stream"
    verbose_name = _("Event stream")

    def ready(self) -> None:
        # Challenges, game starts, turns and game ends → Event rows (games.signals).
        from stream import receivers  # noqa: F401
