"""The "api" URL namespace under /api/v1/: each app's routes, the schema and its docs."""

from csp.decorators import csp_exempt
from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts.api_urls import urlpatterns as account_urls
from archive.urls import api_urlpatterns as archive_urls
from chat.api_urls import urlpatterns as chat_urls
from games.api_urls import urlpatterns as game_urls

app_name = "api"

urlpatterns = [
    *account_urls,
    *game_urls,
    *chat_urls,
    *archive_urls,
    path("schema", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI runs an inline script of its own: the one page without our policy.
    path(
        "docs",
        csp_exempt()(SpectacularSwaggerView.as_view(url_name="api:schema")),
        name="docs",
    ),
]
