from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # Connects the receivers that keep a Profile next to every user.
        # Bots, ratings and the event stream (also registers their Celery tasks).
        from games import (
            bot_receivers,  # noqa: F401
            receivers,  # noqa: F401
        )
