"""What every app's API shares: the error body, its schema entries, pagination."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination


# Serializer is generic in DRF's stubs only (not subscriptable at run time).
class ErrorSerializer(serializers.Serializer):  # type: ignore[type-arg]
    code = serializers.CharField()
    error = serializers.CharField()
    # The error body's "fields": the metaclass takes declared fields out of the class, so
    # Serializer.fields is not hidden (its stubs cannot know).
    fields = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text=_("Per-field messages (code 'invalid').")
    )


_ERROR_DESCRIPTIONS = {
    400: "Invalid input (code `invalid`, with `fields`) or another 400 code of this endpoint",
    401: "Missing or invalid token (`not_authenticated`, `authentication_failed`)",
    403: "Not allowed (`not_a_player`, `not_your_challenge`, `permission_denied`)",
    404: "No such object (`not_found`)",
    409: "The state does not allow it",
    422: "The engine refuses the turn (`illegal_turn`, with its reason)",
    429: "Too many requests (`throttled`), or too many jobs of yours (`busy`); see the "
    "Retry-After header",
    503: "Busy (`busy`): the service is full for now, or too many jobs of this kind wait on "
    "the site; see the Retry-After header",
}


def error_responses(*codes: int, **described: str) -> dict[int, Any]:
    """OpenAPI entries for error answers (every one has the {code, error} body);
    ``e409="…"`` replaces the default description of status 409."""
    return {
        code: OpenApiResponse(
            ErrorSerializer, description=described.get(f"e{code}", _ERROR_DESCRIPTIONS[code])
        )
        for code in codes
    }


class Pagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100
