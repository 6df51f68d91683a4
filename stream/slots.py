"""How many event streams one user, one address, and the whole stream service may hold
open at once.

A stream holds a server thread (and, while it reads, a database connection) for up to
STREAM_MAX_SECONDS: without a cap one token could take every thread of the stream
service and every connection of the database.  The counts live in the cache (Redis in
production: shared by every stream process); each count expires a little after the
longest stream, so a process killed mid-stream cannot leave a slot taken for good.

The service's total (STREAM_MAX_TOTAL, below its threads) is a row of numbered seats,
one cache key each: a stream takes a free seat and renews it as it writes, so the seats
of a killed process come free within seconds, not after the longest stream.  The first
STREAM_RESERVED_FOR_BOTS seats are for bot accounts' streams (GET /api/v1/stream/events
of an account with Profile.is_bot); every other stream, a page's or another account's,
takes only the others: a flood of ordinary accounts cannot keep a bot from its events.
"""

from __future__ import annotations

import logging
import random
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from core.cache import CACHE_ERRORS

logger = logging.getLogger(__name__)


class NoSlot(Exception):
    """Too many streams open for this user or address."""


class ServiceFull(NoSlot):
    """The stream service's total is reached (for any but a bot's stream: the seats
    outside the bots' reserve)."""


# How long a refused client should wait: seats come free as streams end or are closed.
BUSY_RETRY_SECONDS = 30
SEAT_KEY = "stream-slots:seat:"


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


def _seat_seconds() -> int:
    """How long a seat outlives its stream's last write.  A stream writes at least every
    STREAM_KEEPALIVE_SECONDS, though a read may first wait up to DB_POOL_TIMEOUT for a
    database connection."""
    return 3 * int(settings.STREAM_KEEPALIVE_SECONDS) + int(settings.DB_POOL_TIMEOUT)


def _seat_rows() -> tuple[list[str], list[str]]:
    """The keys of the bots' reserved seats, and of the seats everybody may take."""
    total = int(settings.STREAM_MAX_TOTAL)
    reserved = min(int(settings.STREAM_RESERVED_FOR_BOTS), total)
    keys = [f"{SEAT_KEY}{number}" for number in range(total)]
    return keys[:reserved], keys[reserved:]


@dataclass
class Seat:
    """One stream's seat of the service's total, held while `holder` is its value."""

    key: str
    holder: str
    renewed: float

    def renew(self) -> None:
        """The stream is alive: keep the seat (at most once per keep-alive interval).
        A seat lost meanwhile (the cache flushed) is taken again if still free."""
        now = time.monotonic()
        if now - self.renewed < int(settings.STREAM_KEEPALIVE_SECONDS):
            return
        self.renewed = now
        try:
            if not cache.touch(self.key, _seat_seconds()):
                cache.add(self.key, self.holder, _seat_seconds())
        except CACHE_ERRORS as exc:
            logger.warning("stream seats: cache unavailable (%s): seat not renewed", exc)

    def free(self) -> None:
        # Only if still ours: one that expired meanwhile may be another stream's now.
        if cache.get(self.key) == self.holder:
            cache.delete(self.key)


def _take_seat(*, kind: str) -> Seat:
    """A free seat for a stream of `kind` ("bot": a reserved one first, leaving the
    others to everybody else; "page", "other": not a reserved one); raises ServiceFull
    when there is none."""
    reserved, shared = _seat_rows()
    rows = [reserved, shared] if kind == "bot" else [shared]
    holder = f"{kind}:{uuid.uuid4().hex}"
    for _attempt in range(8):
        held = cache.get_many([key for row in rows for key in row])
        free: list[str] = []
        for row in rows:
            free = [key for key in row if key not in held]
            if free:
                break
        else:
            raise ServiceFull
        # A random free seat: streams arriving together rarely want the same one.
        key = random.choice(free)
        if cache.add(key, holder, _seat_seconds()):
            return Seat(key=key, holder=holder, renewed=time.monotonic())
    raise ServiceFull  # every free seat seen went to another stream first


@dataclass(frozen=True)
class StreamCounts:
    """The stream service's seats now (the site's /healthz)."""

    bots: int
    pages: int
    others: int
    cap: int
    reserved_for_bots: int
    shared_taken: int

    @property
    def open(self) -> int:
        return self.bots + self.pages + self.others

    @property
    def full(self) -> bool:
        """Only a bot's stream would still get a seat (if the bots' reserve has one)."""
        return self.shared_taken >= self.cap - self.reserved_for_bots


def stream_counts() -> StreamCounts:
    """How many seats streams hold, of each kind; raises what the cache raises."""
    reserved, shared = _seat_rows()
    held = cache.get_many(reserved + shared)
    kinds = [str(holder).partition(":")[0] for holder in held.values()]
    return StreamCounts(
        bots=kinds.count("bot"),
        pages=kinds.count("page"),
        others=kinds.count("other"),
        cap=len(reserved) + len(shared),
        reserved_for_bots=len(reserved),
        shared_taken=sum(1 for key in shared if key in held),
    )


@contextmanager
def stream_slot(
    *, user_id: int, address: str, page: bool = False, bot: bool = False
) -> Iterator[Seat | None]:
    """Hold one stream slot of the user's and one of the address's, and a seat of the
    service's total, for the block; raises NoSlot when the user's or the address's count
    is full, ServiceFull (a NoSlot) when the seats are.  The block gets the seat, to
    renew while the stream writes.  With the cache down the stream goes on uncounted
    (logged): a documented choice, as for the throttles.

    `page`: a stream of the site's pages (GET /api/v1/stream/page-events), counted
    apart per user (STREAM_PAGE_MAX_PER_USER: a player's open tabs never take their
    bot's slots, nor the reverse) but with the bots' in the address's count.
    `bot`: the NDJSON stream of a bot account, which may take the bots' reserved seats
    (STREAM_RESERVED_FOR_BOTS); no other stream does."""
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
    seat: Seat | None = None
    try:
        for key, limit in keys:
            if not _take(key, limit):
                for held in taken:
                    _give_back(held)
                raise NoSlot
            taken.append(key)
        try:
            seat = _take_seat(kind="page" if page else "bot" if bot else "other")
        except ServiceFull:
            for held in taken:
                _give_back(held)
            raise
    except CACHE_ERRORS as exc:
        logger.warning("stream slots: cache unavailable (%s): not counted", exc)
        taken, seat = [], None
    try:
        yield seat
    finally:
        for key in taken:
            try:
                _give_back(key)
            except CACHE_ERRORS:
                pass
        if seat is not None:
            try:
                seat.free()
            except CACHE_ERRORS:
                pass
