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

import logging
import math
from typing import Any

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from accounts.addresses import client_address
from core.cache import CACHE_ERRORS

logger = logging.getLogger(__name__)


class _SettingsRateThrottle(SimpleRateThrottle):
    scope: str  # each throttle's key in API_THROTTLE_RATES
    # Set by SimpleRateThrottle.__init__ from the rate (DRF's stubs leave them out).
    num_requests: int
    duration: int

    def get_rate(self) -> str | None:
        return settings.API_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request: Request) -> str:
        return client_address(request)

    def allow_request(self, request: Request, view: Any) -> bool:
        # Cache down (Redis unreachable): the request goes through, and it is logged.  A
        # documented choice (docs/configuration.md): the site stays up, unthrottled.
        try:
            return self.allow(request, view)
        except CACHE_ERRORS as exc:
            logger.warning("throttle %s: cache unavailable (%s): let through", self.scope, exc)
            return True

    def allow(self, request: Request, view: Any) -> bool:
        return bool(super().allow_request(request, view))

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


class MessagesThrottle(_SettingsRateThrottle):
    """Game messages (chat), per player: DRF's sliding log, few requests.  The game
    page's form uses it too (``allow_request`` reads only the user and the method)."""

    scope = "messages"


# GCRA in one Redis round trip, atomic (two turns at once cannot both take the last
# allowance).  The time is the Redis server's: one clock for every web worker and
# machine, in the order the scripts run (client timestamps taken a few microseconds
# apart can reach Redis in the other order and refuse the last turn of a burst).  A
# caller may pass its own time (a test's fake clock).  Returns -1 when the turn is
# allowed, else the seconds to wait.
_GCRA_SCRIPT = """
local interval, period = tonumber(ARGV[1]), tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) + tonumber(time[2]) / 1000000
end
local arrival = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if arrival < now then arrival = now end
local following = arrival + interval
if following - period > now then return tostring(following - period - now) end
redis.call('SET', KEYS[1], tostring(following), 'EX', math.max(1, math.ceil(following - now)))
return '-1'
"""


class GcraThrottle(_SettingsRateThrottle):
    """A burst of N, then N per period on average (the rate's N/period), in one number per
    client.  Subclasses name the scope (and may count other methods)."""

    cache_format = "throttle_gcra_%(scope)s_%(ident)s"  # a number, not DRF's list

    def allow(self, request: Request, view: Any) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        interval = self.duration / self.num_requests
        self.now = self.timer()
        backend = caches["default"] if self.cache is cache else self.cache  # not the proxy
        if isinstance(backend, RedisCache):
            args = [repr(interval), self.duration]
            if "timer" in vars(self):  # a clock given to this throttle (tests)
                args.append(repr(self.now))
            waiting = float(
                _gcra_script(backend)(keys=[backend.make_and_validate_key(self.key)], args=args)
            )
            if waiting >= 0:
                self.retry_in = waiting
                return False
            return True
        # Other caches (the embedded default's local memory): the same, in two calls.
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


class TurnsThrottle(GcraThrottle):
    scope = "turns"


class ConditionalThrottle(_SettingsRateThrottle):
    """Conditional turns set or added, per player (the API's PUT and the game page's form):
    a full set of lines costs a web worker about 0.35 s (#28.11).  Deleting them is free."""

    scope = "conditional"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.method not in ("PUT", "POST"):
            return None
        return super().get_cache_key(request, view)


def _gcra_script(cache: RedisCache) -> Any:
    """The registered script for this cache's Redis (redis-py sends its SHA after the
    first call)."""
    client = cache._cache.get_client(write=True)
    script = getattr(client, "_adaptoid_gcra", None)
    if script is None:
        script = client.register_script(_GCRA_SCRIPT)
        # Our own attribute on the client: the script is registered once per client.
        client._adaptoid_gcra = script  # type: ignore[attr-defined]
    return script
