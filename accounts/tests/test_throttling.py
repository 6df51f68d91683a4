"""The turns throttle (GCRA): a burst of N, then N per period, Retry-After exact."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.cache import cache, caches

from accounts.throttling import TurnsThrottle

_players = itertools.count(10_000_000)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def post(settings: Any) -> Iterator[Callable[[], tuple[bool, float | None]]]:
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "turns": "3/minute"}
    clock = Clock()
    request = SimpleNamespace(
        method="POST", user=SimpleNamespace(pk=next(_players), is_authenticated=True)
    )

    def attempt() -> tuple[bool, float | None]:
        throttle = TurnsThrottle()  # DRF builds one per request
        throttle.timer = clock
        allowed = throttle.allow_request(request, None)
        return allowed, throttle.wait()

    attempt.clock = clock  # type: ignore[attr-defined]
    yield attempt
    cache.delete(TurnsThrottle.cache_format % {"scope": "turns", "ident": request.user.pk})


def test_a_burst_of_n_then_refused_with_the_exact_wait(post) -> None:
    assert [post()[0] for _ in range(3)] == [True, True, True]
    allowed, wait = post()
    assert not allowed
    assert wait == pytest.approx(20.0)  # one turn per 60/3 seconds after the burst
    post.clock.now += 19.0
    allowed, wait = post()
    assert not allowed and wait == pytest.approx(1.0)
    post.clock.now += 1.0
    assert post()[0] is True
    assert post()[0] is False  # the refill was one turn, not three


def test_the_allowance_refills_at_the_rate(post) -> None:
    for _ in range(3):
        post()
    post.clock.now += 60.0
    assert [post()[0] for _ in range(4)] == [True, True, True, False]


def test_refused_turns_do_not_use_the_allowance(post) -> None:
    for _ in range(3):
        post()
    for _ in range(10):
        assert post()[0] is False
    post.clock.now += 20.0
    assert post()[0] is True


def test_reads_are_never_throttled(settings) -> None:
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "turns": "1/minute"}
    request = SimpleNamespace(method="GET", user=SimpleNamespace(pk=1, is_authenticated=True))
    assert all(TurnsThrottle().allow_request(request, None) for _ in range(5))


def test_on_redis_concurrent_turns_cannot_share_the_last_allowance(settings: Any) -> None:
    import threading

    from django.core.cache.backends.redis import RedisCache

    if not isinstance(caches["default"], RedisCache):
        pytest.skip("one atomic script on Redis (CI); the embedded cache counts in two calls")
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "turns": "5/minute"}
    request = SimpleNamespace(
        method="POST", user=SimpleNamespace(pk=next(_players), is_authenticated=True)
    )
    start = threading.Barrier(20)
    answers: list[bool] = []

    def attempt() -> None:
        throttle = TurnsThrottle()
        start.wait()
        answers.append(throttle.allow_request(request, None))

    threads = [threading.Thread(target=attempt) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    cache.delete(TurnsThrottle.cache_format % {"scope": "turns", "ident": request.user.pk})
    assert sorted(answers) == [False] * 15 + [True] * 5


@pytest.mark.django_db
def test_a_client_cannot_choose_its_identity_with_x_forwarded_for(
    client: Any, settings: Any
) -> None:
    # No trusted proxy (TRUSTED_PROXIES=0, the default): the connection's address counts.
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "token": "2/minute"}
    statuses = [
        client.post(
            "/api/v1/auth/token",
            {"username": "nobody", "password": f"guess-{attempt}"},
            content_type="application/json",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{attempt + 1}",
        ).status_code
        for attempt in range(4)
    ]
    assert statuses == [401, 401, 429, 429]
