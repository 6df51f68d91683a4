"""The throttles of analysis requests and of the opening explorer: their rates are
settings.API_THROTTLE_RATES's, read at request time (like accounts.throttling)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from accounts.addresses import client_address
from accounts.throttling import GcraThrottle


class AnalysisThrottle(SimpleRateThrottle):
    scope = "analysis"

    def get_rate(self) -> str | None:
        return settings.API_THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if not (request.user and request.user.is_authenticated):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class EvaluationThrottle(AnalysisThrottle):
    """Analysis-board evaluations: per user, or per address for visitors."""

    scope = "evaluations"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.method != "POST":
            return None
        ident = request.user.pk if request.user.is_authenticated else client_address(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class ExplorerThrottle(GcraThrottle):
    """The opening explorer, its API and its page alike: a burst, then a steady rate, per
    user or per address for visitors.  Reads are its work, so reads count: 8 unthrottled
    clients raised another user's request from 20 ms to 320 ms (#28.11)."""

    scope = "explorer"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.method not in ("GET", "HEAD"):
            return None
        user = request.user
        ident = f"user-{user.pk}" if user.is_authenticated else f"address-{client_address(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}
