"""Django's Redis cache, keeping one Redis client per connection pool.

Django's ``RedisCacheClient`` builds a new ``redis.Redis`` object for every cache
call, and redis-py fills a table of a few hundred response callbacks each time:
about a tenth of a millisecond of CPU per call, twice per throttled API request.
A client over a pool is safe to share between threads, so one per pool is enough.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class ReusedClientRedisCacheClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # RedisCacheClient's private helpers (not in its stubs): the docstring says why.
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            new = self._client  # type: ignore[attr-defined]
            client = self._clients[id(pool)] = new(connection_pool=pool)
        return client


class ReusedClientRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with ReusedClientRedisCacheClient."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient
