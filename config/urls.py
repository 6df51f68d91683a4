"""Root URLs: the API under /api/v1/, the admin, the health check.

The website engineer adds the HTML pages (and `tournaments` its URLs) here.
"""

from importlib import import_module
from typing import Any

from django.contrib import admin
from django.urls import include, path

from config.health import healthz


def _with(module: str, archive_list: str) -> tuple[list[Any], str]:
    """The URLs of `module` and then archive/urls.py's `archive_list`, in `module`'s
    namespace (its app_name): how the archive's routes keep the names they had in apps
    that must not import the archive.  Imported here, in this order, as include("…")
    would (games.api.views first: DRF's generics import our pagination class)."""
    urls = import_module(module)
    return [*urls.urlpatterns, *getattr(import_module("archive.urls"), archive_list)], (
        urls.app_name
    )


urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("config.api_urls")),
    path("api/v1/", include("clocks.api_urls")),
    path("api/v1/", include("notifications.api_urls")),
    path("notifications/", include("notifications.urls")),
    path("vacation/", include("clocks.urls")),
    path(
        "api/v1/",
        include(_with("tournaments.api_urls", "tournaments_api_urlpatterns")),
    ),
    path("api/v1/", include("bots.api_urls")),
    path("api/v1/", include("ratings.api_urls")),
    path("api/v1/", include("stream.api_urls")),
    path("api/v1/", include("analysis.api_urls")),
    path("healthz", healthz, name="healthz"),
    path("tournaments/", include(_with("tournaments.urls", "tournaments_urlpatterns"))),
    path("", include("bots.urls")),  # bots, bot matches
    path("", include("ratings.urls")),  # leaderboard, rating charts
    path("", include("chat.urls")),  # the game page's messages
    path("", include("analysis.urls")),  # the opening explorer, "Analyse"
    path("", include("web.urls")),
]


def handler404(request, exception=None):
    """JSON under /api/ (every API error has a code), Django's page elsewhere."""
    if request.path.startswith("/api/"):
        from core.api.errors import json_404

        return json_404(request, exception)
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)


def handler400(request, exception=None):
    """A request Django refuses before any view (a body over DATA_UPLOAD_MAX_MEMORY_SIZE…)."""
    if request.path.startswith("/api/"):
        from core.api.errors import json_400

        return json_400(request, exception)
    from django.views.defaults import bad_request

    return bad_request(request, exception)


def handler500(request):
    if request.path.startswith("/api/"):
        from core.api.errors import json_500

        return json_500(request)
    from django.views.defaults import server_error

    return server_error(request)
