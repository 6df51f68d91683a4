"""What a cache call raises when the cache server is down (Redis unreachable)."""

from __future__ import annotations

from redis.exceptions import RedisError

# redis-py's own errors, and the socket errors under them.
CACHE_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)
