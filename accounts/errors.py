"""Domain errors of sign-up and log-in."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import status

from core.errors import DomainError


class AccountExists(DomainError):
    code = "username_taken"
    default_message = _("This username is taken.")


class WeakPassword(DomainError):
    code = "weak_password"
    default_message = _("This password is too weak.")


class BadCredentials(DomainError):
    code = "bad_credentials"
    default_message = _("Wrong username or password.")


HTTP_STATUS: dict[type[DomainError], int] = {
    AccountExists: status.HTTP_409_CONFLICT,
    WeakPassword: status.HTTP_400_BAD_REQUEST,
    BadCredentials: status.HTTP_401_UNAUTHORIZED,
}
