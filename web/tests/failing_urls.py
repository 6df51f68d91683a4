"""The site's URLs and one view that fails, for the tests that must see the 500 page
(web/tests/test_every_page_translated.py): ROOT_URLCONF points here for them."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import handler400, handler404, handler500
from config.urls import urlpatterns as site_urlpatterns

__all__ = ["handler400", "handler404", "handler500", "urlpatterns"]

FAILING_PATH = "test-failure/"


def fail(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a deliberate failure, to show the 500 page")


urlpatterns = [path(FAILING_PATH, fail), *site_urlpatterns]
