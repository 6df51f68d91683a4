"""Throttles whose rates come from settings.API_THROTTLE_RATES at request time.

DRF's own ScopedRateThrottle copies its rates when the class is imported, so
changing them in a test (or by a settings reload) would have no effect.

Sign-ups and tokens keep DRF's sliding log (exactly N per period: abuse control,
few requests).  Turns, the busiest write of the API, count with GCRA (the generic cell
rate algorithm, a token bucket): a burst of N, then N per period on average, as
lichess and most game APIs limit moves; the cache holds one number per player
instead of up to N timestamps unpickled, filtered and pickled again on every turn.
"""

from __future__ import annotations

import math
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
    cache_format = "throttle_gcra_%(scope)s_%(ident)s"  # a number, not DRF's list

    def allow_request(self, request: Request, view: Any) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        interval = self.duration / self.num_requests
        self.now = self.timer()
        # The theoretical arrival time: when this client's allowance is used up.
        arrival = max(float(self.cache.get(self.key, 0.0)), self.now)
        following = arrival + interval
        if following - self.duration > self.now:
            self.retry_in = following - self.duration - self.now
            return False
        self.cache.set(self.key, following, max(1, math.ceil(following - self.now)))
        return True

    def wait(self) -> float | None:
        return getattr(self, "retry_in", None)
