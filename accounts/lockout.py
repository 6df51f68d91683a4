"""django-axes' cache handler, letting log-ins through while the cache is down.

A choice, documented in docs/configuration.md: with Redis unreachable the site keeps
working (log-ins and tokens answer) without counting failures, rather than refusing
everybody or answering 500; each skipped count is logged.
"""

from __future__ import annotations

import logging
from typing import Any

from axes.handlers.cache import AxesCacheHandler
from axes.helpers import get_cache

from core.cache import CACHE_ERRORS

logger = logging.getLogger(__name__)


class FailOpenCacheHandler(AxesCacheHandler):
    # The cache is looked up at each use, not kept from the first: axes keeps one handler
    # for the process, and a cache object taken while settings differed (a test's dead
    # Redis, a reconfigured cache) must not stay its cache for good.
    @property
    def cache(self) -> Any:
        return get_cache()

    @cache.setter
    def cache(self, value: Any) -> None:
        pass  # AxesCacheHandler.__init__ stores one: the property above answers instead

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        try:
            return int(super().get_failures(request, credentials))
        except CACHE_ERRORS as exc:
            logger.warning("log-in lockout: cache unavailable (%s): not counted", exc)
            return 0

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        try:
            super().user_login_failed(sender, credentials, request, **kwargs)
        except CACHE_ERRORS as exc:
            logger.warning("log-in lockout: cache unavailable (%s): failure not counted", exc)

    def user_logged_in(self, sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        try:
            super().user_logged_in(sender, request, user, **kwargs)
        except CACHE_ERRORS as exc:
            logger.warning("log-in lockout: cache unavailable (%s): reset skipped", exc)
