from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Website"

    def ready(self) -> None:
        from web import receivers  # noqa: F401  (login: remember the profile's language)
