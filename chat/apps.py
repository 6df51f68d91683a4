from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = _("Game messages")

    def ready(self) -> None:
        from chat.errors import HTTP_STATUS
        from core.api.errors import register_statuses

        register_statuses(HTTP_STATUS)
