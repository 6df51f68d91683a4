"""Requests refused before any view (a NUL character in the path), and the
Content-Security-Policy of every answer.

A NUL character in the path:

PostgreSQL text cannot hold NUL, so ``/api/v1/players/a%00b`` would reach the database
and fail there (a 500).  No object of ours has a NUL in its name or id, so such an
address names nothing: 404, as for any unknown object.  (NUL in query values is refused
by the serializers' and forms' own validation; unknown query parameters are ignored.)
"""

from __future__ import annotations

from collections.abc import Callable

from csp.constants import HEADER
from csp.middleware import CSPMiddleware
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound, JsonResponse
from django.http.response import HttpResponseBase
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


# A JSON answer is data, never rendered as a document: nothing may load from it and
# nobody may frame it (OWASP's REST advice).  The site's own policy (settings
# CONTENT_SECURITY_POLICY) is for pages.
JSON_POLICY = "default-src 'none'; frame-ancestors 'none'"


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, with one fixed policy for JSON answers: django-csp builds
    the page policy from the settings on every answer, which cost the API's busiest
    call (a turn) about a twentieth of its CPU for a header a JSON reader ignores."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if str(response.get("Content-Type", "")).startswith("application/json"):
            if HEADER not in response:
                response[HEADER] = JSON_POLICY
            return response
        return super().process_response(request, response)
