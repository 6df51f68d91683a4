from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from accounts import language, receivers  # noqa: F401  (profile; language at login)
        from accounts.errors import HTTP_STATUS
        from core.api.errors import register_statuses

        register_statuses(HTTP_STATUS)
