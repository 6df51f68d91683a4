"""Requests refused before any view: a NUL character in the path or the query string.

PostgreSQL text cannot hold NUL, so ``/api/v1/players/a%00b`` would reach the database
and fail there (a 500); no URL of ours needs one.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext as _


class RejectNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = request.GET
        if "\x00" in request.path or any(
            "\x00" in key or any("\x00" in value for value in query.getlist(key)) for key in query
        ):
            message = _("The address contains a NUL character.")
            if request.path.startswith("/api/"):
                return JsonResponse({"code": "invalid", "error": message}, status=400)
            return HttpResponseBadRequest(message)
        return self.get_response(request)
