"""The throttle of analysis requests: its rate is settings.API_THROTTLE_RATES["analysis"],
read at request time (like accounts.throttling), counted per user."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from accounts.addresses import client_address


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
