"""Request types for views that only a signed-in user reaches (``login_required``,
``IsAuthenticated``): their ``user`` is a ``User``, not ``User | AnonymousUser``.

The classes are annotations only: Django and DRF build the requests as usual.
``signed_in_user`` is for code whose signature cannot say so (the admin's actions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from rest_framework.request import Request

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class SignedInHttpRequest(HttpRequest):
    """A page's request behind ``login_required``."""

    user: User


class SignedInRequest(Request):
    """An API request behind ``IsAuthenticated``."""

    user: User


def signed_in_user(request: HttpRequest) -> User:
    """The request's user where only a signed-in one gets (the admin's actions)."""
    user = request.user
    if not user.is_authenticated:
        raise PermissionDenied
    return user
