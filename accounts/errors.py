"""Domain errors of sign-up and log-in."""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import status

from core.errors import DomainError


class AccountExists(DomainError):
    code = "username_taken"
    default_message = _("This username is taken.")


class UsernameLooksAlike(DomainError):
    """The username looks like an existing account's (accounts.usernames)."""

    code = "username_look_alike"
    default_message = _("This username looks like an existing account's: choose another one.")

    @classmethod
    def of(cls, existing: str) -> UsernameLooksAlike:
        message = gettext(
            "This username looks like the existing account %(name)s: choose another one."
        ) % {"name": existing}
        return cls(message, fields={"username": [message]})


class WeakPassword(DomainError):
    code = "weak_password"
    default_message = _("This password is too weak.")


class BadCredentials(DomainError):
    code = "bad_credentials"
    default_message = _("Wrong username or password.")


class LockedOut(DomainError):
    code = "locked_out"
    default_message = _(
        "Too many wrong passwords from this address, for this account or for several: "
        "try again later."
    )


HTTP_STATUS: dict[type[DomainError], int] = {
    LockedOut: status.HTTP_429_TOO_MANY_REQUESTS,
    AccountExists: status.HTTP_409_CONFLICT,
    UsernameLooksAlike: status.HTTP_409_CONFLICT,
    WeakPassword: status.HTTP_400_BAD_REQUEST,
    BadCredentials: status.HTTP_401_UNAUTHORIZED,
}


class Blocked(DomainError):
    """One of the two players blocked the other (accounts.models.Block)."""

    code = "blocked"
    default_message = _("You cannot do this: one of you has blocked the other.")


HTTP_STATUS[Blocked] = status.HTTP_403_FORBIDDEN
