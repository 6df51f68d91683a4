"""Web pages of the games app (filled by the website engineer).

The JSON API lives in games/api_urls.py, mounted at /api/v1/ by config/urls.py.
"""

from django.urls import path  # noqa: F401  (used once pages are added)

app_name = "games"

urlpatterns: list = []
