"""Requests refused before any view: a NUL character in the path.

PostgreSQL text cannot hold NUL, so ``/api/v1/players/a%00b`` would reach the database
and fail there (a 500).  No object of ours has a NUL in its name or id, so such an
address names nothing: 404, as for any unknown object.  (NUL in query values is refused
by the serializers' and forms' own validation; unknown query parameters are ignored.)
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotFound, JsonResponse
from django.utils.translation import gettext as _


class RejectNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path:
            message = _("Not found.")
            if request.path.startswith("/api/"):
                return JsonResponse({"code": "not_found", "error": message}, status=404)
            return HttpResponseNotFound(message)
        return self.get_response(request)
