"""Throttles whose rates come from settings.API_THROTTLE_RATES at request time.

DRF's own ScopedRateThrottle copies its rates when the class is imported, so
changing them in a test (or by a settings reload) would have no effect.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle


class _SettingsRateThrottle(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        return settings.API_THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return None
        ident = (
            request.user.pk
            if request.user and request.user.is_authenticated
            else self.get_ident(request)
        )
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AccountsThrottle(_SettingsRateThrottle):
    scope = "accounts"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        # Per address: sign-ups are anonymous.
        if request.method != "POST":
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenThrottle(AccountsThrottle):
    scope = "token"


class TurnsThrottle(_SettingsRateThrottle):
    scope = "turns"
