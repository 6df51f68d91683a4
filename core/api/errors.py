"""The single place where engine and domain errors become HTTP answers.

Every error body is JSON with a machine-readable ``code`` and a human-readable
``error``; validation errors add ``fields``.  Each app registers the statuses of its
own domain errors from its ``AppConfig.ready`` (``register_statuses``); an error
class without one inherits its nearest registered base's, else 400.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import DomainError, InvalidInput, OwnerBusy, QueueFull
from engine import IllegalTurnError, InvalidPositionError, InvalidTurnError

_DOMAIN_STATUS: dict[type[DomainError], int] = {
    InvalidInput: status.HTTP_400_BAD_REQUEST,
    OwnerBusy: status.HTTP_429_TOO_MANY_REQUESTS,
    QueueFull: status.HTTP_503_SERVICE_UNAVAILABLE,
}

# Engine errors: checked most specific first (an illegal turn may subclass an invalid one).
ENGINE_ERRORS: list[tuple[type[Exception], int, str]] = [
    (IllegalTurnError, status.HTTP_422_UNPROCESSABLE_ENTITY, "illegal_turn"),
    (InvalidTurnError, status.HTTP_400_BAD_REQUEST, "invalid_turn"),
    (InvalidPositionError, status.HTTP_400_BAD_REQUEST, "invalid_position"),
]


def register_statuses(statuses: Mapping[type[DomainError], int]) -> None:
    """Tell the handler the HTTP status of some domain errors (an app's ``ready``)."""
    _DOMAIN_STATUS.update(statuses)


def status_for(exc: DomainError) -> int:
    for klass in type(exc).__mro__:
        if klass in _DOMAIN_STATUS:
            return int(_DOMAIN_STATUS[klass])
    return int(status.HTTP_400_BAD_REQUEST)


def _first_message(detail: Any) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            message = _first_message(value)
            if message:
                return message if key == "non_field_errors" else f"{key}: {message}"
    elif isinstance(detail, list):
        for item in detail:
            message = _first_message(item)
            if message:
                return message
    elif detail:
        return str(detail)
    return ""


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response: Response | None
    if isinstance(exc, DomainError):
        body = {"code": exc.code, "error": str(exc.message), **exc.details}
        response = Response(body, status=status_for(exc))
        if response.status_code == status.HTTP_401_UNAUTHORIZED:
            response["WWW-Authenticate"] = 'Bearer realm="api"'  # required with a 401
        if "retry_after" in exc.details and response.status_code in (
            status.HTTP_429_TOO_MANY_REQUESTS,
            status.HTTP_503_SERVICE_UNAVAILABLE,
        ):
            response["Retry-After"] = str(exc.details["retry_after"])
        return response
    for klass, http_status, code in ENGINE_ERRORS:
        if isinstance(exc, klass):
            return Response({"code": code, "error": str(exc)}, status=http_status)

    # Django's own Http404 / PermissionDenied become their DRF counterparts.
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)  # sets Retry-After, WWW-Authenticate
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        response.data = {
            "code": "invalid",
            "error": _first_message(detail) or _("Invalid input."),
            "fields": detail,
        }
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        if isinstance(exc, exceptions.NotFound):
            code = "not_found"
        response.data = {"code": code, "error": _first_message(exc.detail)}
        # Throttled sets `wait` in __init__ (its stubs leave it out).
        wait = exc.wait if isinstance(exc, exceptions.Throttled) else None  # type: ignore[attr-defined]
        if wait is not None:
            response.data["retry_after"] = int(wait + 0.999)
    return response


def json_400(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(
        {"code": "bad_request", "error": _("The request cannot be read (too large or malformed).")},
        status=400,
    )


def json_404(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse({"code": "not_found", "error": _("Not found.")}, status=404)


def json_500(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"code": "server_error", "error": _("Server error.")}, status=500)
