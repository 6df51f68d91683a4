"""How many event streams one user, and one address, may hold open at once.

A stream holds a server thread (and, while it reads, a database connection) for up to
STREAM_MAX_SECONDS: without a cap one token could take every thread of the stream
service and every connection of the database.  The counts live in the cache (Redis in
production: shared by every stream process); each count expires a little after the
longest stream, so a process killed mid-stream cannot leave a slot taken for good.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache

from core.cache import CACHE_ERRORS

logger = logging.getLogger(__name__)


class NoSlot(Exception):
    """Too many streams open for this user or address."""


def _ttl() -> int:
    return int(settings.STREAM_MAX_SECONDS) + 60


def _take(key: str, limit: int) -> bool:
    for _attempt in range(3):
        cache.add(key, 0, _ttl())
        try:
            count = cache.incr(key)
            break
        except ValueError:
            # Gone between the two calls (expired, evicted, the cache flushed): again.
            continue
    else:
        logger.warning("stream slots: the count %s keeps vanishing: not counted", key)
        return True
    cache.touch(key, _ttl())
    if count > limit:
        _give_back(key)
        return False
    return True


def held_slots(*, user_id: int, page: bool = False) -> int:
    """How many streams of the user (page streams with `page`) hold a slot now."""
    kind = "page-user" if page else "user"
    return int(cache.get(f"stream-slots:{kind}:{user_id}") or 0)


def _give_back(key: str) -> None:
    try:
        if cache.decr(key) < 0:
            cache.set(key, 0, _ttl())
    except ValueError:  # expired meanwhile: nothing left to give back
        pass


@contextmanager
def stream_slot(*, user_id: int, address: str, page: bool = False) -> Iterator[None]:
    """Hold one stream slot of the user's and one of the address's for the block;
    raises NoSlot when either is full.  With the cache down the stream goes on
    uncounted (logged): a documented choice, as for the throttles.

    `page`: a stream of the site's pages (GET /api/v1/stream/page-events), counted
    apart per user (STREAM_PAGE_MAX_PER_USER: a player's open tabs never take their
    bot's slots, nor the reverse) but with the bots' in the address's count."""
    user_key, user_limit = (
        (f"stream-slots:page-user:{user_id}", int(settings.STREAM_PAGE_MAX_PER_USER))
        if page
        else (f"stream-slots:user:{user_id}", int(settings.STREAM_MAX_PER_USER))
    )
    keys = [
        (user_key, user_limit),
        (f"stream-slots:address:{address}", int(settings.STREAM_MAX_PER_ADDRESS)),
    ]
    taken: list[str] = []
    try:
        for key, limit in keys:
            if not _take(key, limit):
                for held in taken:
                    _give_back(held)
                raise NoSlot
            taken.append(key)
    except CACHE_ERRORS as exc:
        logger.warning("stream slots: cache unavailable (%s): not counted", exc)
        taken = []
    try:
        yield
    finally:
        for key in taken:
            try:
                _give_back(key)
            except CACHE_ERRORS:
                pass
