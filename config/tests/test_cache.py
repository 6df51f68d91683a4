"""config.cache: Django's Redis cache with one Redis client per pool."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings

from config.cache import ReusedClientRedisCache


@pytest.fixture
def redis_cache() -> Iterator[ReusedClientRedisCache]:
    backend = settings.CACHES["default"]
    if not backend["BACKEND"].endswith("RedisCache"):
        pytest.skip("the cache is not Redis here (embedded default); CI runs this on Redis")
    cache = ReusedClientRedisCache(backend["LOCATION"], {"KEY_PREFIX": "cache-test"})
    yield cache
    cache.clear()


def test_it_is_the_cache_in_use_with_redis() -> None:
    if settings.CACHES["default"]["BACKEND"].endswith("RedisCache"):
        assert settings.CACHES["default"]["BACKEND"] == "config.cache.ReusedClientRedisCache"


def test_one_client_serves_every_call(redis_cache: ReusedClientRedisCache) -> None:
    client = redis_cache._cache.get_client(write=True)
    assert redis_cache._cache.get_client() is client
    assert redis_cache._cache.get_client(write=True) is client


def test_behaves_as_djangos_redis_cache(redis_cache: ReusedClientRedisCache) -> None:
    assert redis_cache.get("missing", "default") == "default"
    redis_cache.set("history", [1.5, 2.5], timeout=60)
    assert redis_cache.get("history") == [1.5, 2.5]
    assert redis_cache.add("history", "other") is False
    redis_cache.set("count", 1)
    assert redis_cache.incr("count") == 2
    redis_cache.delete("history")
    assert redis_cache.get("history") is None
