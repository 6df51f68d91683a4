"""`Authorization: Bearer <token>` authentication against hashed ApiToken rows."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts.services import user_for_token


class BearerTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None  # no credentials: anonymous (reading public data is allowed)
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                _("Use the header 'Authorization: Bearer <token>'.")
            )
        try:
            raw = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(
                _("The token contains invalid characters.")
            ) from None
        user = user_for_token(raw)
        if user is None:
            raise exceptions.AuthenticationFailed(_("Invalid, revoked or expired token."))
        return user, None

    def authenticate_header(self, request: Request) -> str:
        # Makes DRF answer 401 (not 403) to anonymous requests that need a login.
        return f'{self.keyword} realm="api"'


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "Token from POST /api/v1/auth/token",
        }
