"""The per-user event stream: what a bot (or any client) needs to play without polling.

Receivers (stream.receivers, on games.signals) write ``Event`` rows in the same
transaction as the change they report; ``event_lines`` turns a user's rows into
NDJSON lines for ``GET /api/v1/stream/events``.  Polling a table by id works the same on the
embedded SQLite set-up and on PostgreSQL+Redis, survives restarts, and needs no
extra server.

Line types (every line is one JSON object, or an empty keep-alive line):

* ``{"type": "challenge", "id": …, "challenge": {id, created_by, opponent, color, opening, rated, days_per_turn}}``
* ``{"type": "game_start", "id": …, "game": {id, white, black, status, opening, position, ply, to_move, color}}``
  (``color``: the receiving user's colour)
* ``{"type": "turn", "id": …, "game": {…same…}, "turn": {ply, text, player}}``
* ``{"type": "game_finish", "id": …, "game": {…same…, result, termination}}``
* ``{"type": "message", "id": …, "game": {…same…}, "message": {id, game, author, text, created, hidden}}``
  (a message in one of your games, yours included: chat.services)

``id`` is the event's id (absent on the lines sent at connection time, which
report the open challenges and running games as ``challenge``/``game_start``).
"""

from __future__ import annotations

import datetime
import json
import time
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Max, Q
from django.utils import timezone

from accounts.models import Profile
from core.rows import RowWriter
from games.models import Challenge, Game
from stream.models import Event

# Rows the site's pages are told about but the NDJSON stream of the bots does not
# carry (its lines stay as documented above): a draw offered or withdrawn.
PAGE_ONLY_TYPES = (Event.Type.DRAW_OFFER.value,)

# A transaction that wrote an event commits well within this many seconds of a
# later event becoming visible; the stream re-reads that window to catch it.
SETTLE_SECONDS = 5.0


def game_payload(game: Game, user_id: int | None = None) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": game.pk,
        "white": game.white.get_username(),
        "black": game.black.get_username(),
        "status": game.status,
        "opening": game.opening,
        "position": game.position,
        "ply": game.ply,
        "to_move": game.to_move,
        "result": game.result,
        "termination": game.termination or None,
        "rated": game.rated,
    }
    if user_id is not None:
        payload["color"] = game.color_of(user_id)
    return payload


def challenge_payload(challenge: Challenge) -> dict[str, Any]:
    return {
        "id": challenge.pk,
        "created_by": challenge.created_by.get_username(),
        "opponent": challenge.opponent.get_username() if challenge.opponent is not None else None,
        "color": challenge.color,
        "opening": challenge.opening,
        "rated": challenge.rated,
        "days_per_turn": challenge.days_per_turn,
        "status": challenge.status,
    }


def _listeners(
    user_ids: Iterable[int | None], profiles: Mapping[int, Profile] | None = None
) -> list[int]:
    """The users worth writing events for: everybody but the built-in bots (tasks play
    those, nobody reads their stream), so bot matches write no events at all.

    `profiles` (user id → Profile, e.g. loaded with the locked game) spares the query
    when it has every user's.
    """
    ids = {user_id for user_id in user_ids if user_id is not None}
    if profiles is not None and ids <= profiles.keys():
        engine_bots = {
            user_id
            for user_id in ids
            if profiles[user_id].is_bot and profiles[user_id].bot_engine != ""
        }
    else:
        engine_bots = set(
            Profile.objects.filter(user_id__in=ids, is_bot=True)
            .exclude(bot_engine="")
            .values_list("user_id", flat=True)
        )
    return sorted(ids - engine_bots)


@cache
def _writer() -> RowWriter[Event]:
    return RowWriter(Event)  # built at first use: the models' apps must be ready


def _insert(rows: list[Event]) -> None:
    """Insert a game's events (one per listening player) as one named statement: every
    turn writes them, and ``bulk_create`` compiled its ``INSERT … UNNEST`` and escaped
    the payloads into arrays in Python each time (``core.rows``;
    ``games/tests/test_hot_writes.py`` checks the rows equal the ORM's)."""
    if not rows:
        return
    writer = _writer()
    params = [value for row in rows for value in writer.insert_values(row)]
    with connection.cursor() as cursor:
        cursor.execute(writer.insert_sql(len(rows)), params)
        for row, (pk,) in zip(rows, cursor.fetchall(), strict=True):
            row.pk = pk


def record_challenge(challenge: Challenge) -> None:
    for user_id in _listeners([challenge.opponent_id]):
        Event.objects.create(
            user_id=user_id, type=Event.Type.CHALLENGE, payload=challenge_payload(challenge)
        )


def record_page_change(game: Game, event_type: str) -> None:
    """A page-only event (PAGE_ONLY_TYPES) for both players: only the game's id."""
    _insert(
        [
            Event(user_id=user_id, type=event_type, payload={"game": {"id": game.pk}})
            for user_id in _listeners([game.white_id, game.black_id])
        ]
    )


def record_game(
    game: Game,
    event_type: str,
    extra: dict[str, Any] | None = None,
    profiles: Mapping[int, Profile] | None = None,
) -> None:
    listeners = _listeners([game.white_id, game.black_id], profiles)
    # One INSERT for both players (none when neither listens, e.g. a bot match).
    _insert(
        [
            Event(
                user_id=user_id,
                type=event_type,
                payload={"game": game_payload(game, user_id), **(extra or {})},
            )
            for user_id in listeners
        ]
    )


def _line(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode() + b"\n"


def snapshot_lines(user_id: int) -> Iterator[bytes]:
    """What is already waiting when a client connects: open challenges, running games."""
    challenges = Challenge.objects.filter(
        opponent_id=user_id, status=Challenge.Status.OPEN
    ).select_related("created_by", "opponent")
    for challenge in challenges:
        yield _line({"type": Event.Type.CHALLENGE, "challenge": challenge_payload(challenge)})
    games = (
        Game.objects.filter(Q(white_id=user_id) | Q(black_id=user_id))
        .exclude(status=Game.Status.FINISHED)
        .select_related("white", "black")
        .order_by("id")
    )
    for game in games:
        yield _line({"type": Event.Type.GAME_START, "game": game_payload(game, user_id)})


def _release_connection() -> None:
    """Give this thread's database connection back between polls: a stream waits far
    longer than it reads, and a connection kept per waiting stream (CONN_MAX_AGE) once
    took all of PostgreSQL's (issue #14).  With the pool (DB_POOL_MAX_SIZE, on in the
    stream service) this returns it to the pool; without, it disconnects.  Inside a
    transaction (a test's, or a caller's) the connection is left alone: closing it
    would break that transaction."""
    if not connection.in_atomic_block:
        connection.close()


def _follow(
    user_id: int,
    *,
    floor: int,
    started: float,
    lifetime: float,
    keepalive: float,
    poll: float,
    clock: Any,
    sleep: Any,
    exclude: tuple[str, ...] = (),
) -> Iterator[Event | None]:
    """Each new event of `user_id` above `floor`, once, until `lifetime` has passed since
    `started`; None after `keepalive` quiet seconds (the caller writes a keep-alive).

    Ids are given out at insert but become visible at commit, possibly out of
    order; so this keeps re-reading the ids above ``floor`` (the highest id seen
    more than SETTLE_SECONDS ago) and remembers what it already gave.
    """
    sent: dict[int, float] = {}
    last_write = clock()
    while clock() - started < lifetime:
        now = clock()
        fresh = list(
            Event.objects.filter(user_id=user_id, id__gt=floor)
            .exclude(type__in=exclude)
            .order_by("id")[:500]
        )
        # Read, then let go of the connection before writing to a possibly slow client
        # or sleeping: a waiting stream holds none (see _release_connection).
        _release_connection()
        for event in fresh:
            if event.pk in sent:
                continue
            sent[event.pk] = now
            last_write = now
            yield event
        settled = [event_id for event_id, seen in sent.items() if now - seen > SETTLE_SECONDS]
        if settled:
            floor = max(floor, *settled)
            sent = {event_id: seen for event_id, seen in sent.items() if event_id > floor}
        if now - last_write >= keepalive:
            last_write = now
            yield None
        sleep(poll)


def event_lines(
    user_id: int,
    *,
    lifetime: float,
    keepalive: float,
    poll: float = 0.5,
    clock: Any = time.monotonic,
    sleep: Any = time.sleep,
) -> Iterator[bytes]:
    """NDJSON lines for `user_id` for `lifetime` seconds: the snapshot (or, if empty, an
    empty line), then new events as they are committed, and an empty line after
    `keepalive` quiet seconds.  The page-only events (PAGE_ONLY_TYPES) are not part of
    this stream."""
    started = clock()
    floor = Event.objects.filter(user_id=user_id).aggregate(top=Max("id"))["top"] or 0
    snapshot = list(snapshot_lines(user_id))
    _release_connection()
    # Nothing to report yet: a keep-alive at once, so that the client gets the status
    # line now rather than at the first keep-alive (a server sends it with the first line).
    yield from snapshot or [b"\n"]
    for event in _follow(
        user_id,
        floor=floor,
        started=started,
        lifetime=lifetime,
        keepalive=keepalive,
        poll=poll,
        clock=clock,
        sleep=sleep,
        exclude=PAGE_ONLY_TYPES,
    ):
        if event is None:
            yield b"\n"
        else:
            yield _line({"type": event.type, "id": event.pk, **event.payload})


# --- The site's pages: Server-Sent Events (GET /api/v1/stream/page-events). ------------
# A page only needs to know *that* something of the user changed, and which game or
# challenge: it then fetches that part as it would by polling (status.json, the game API).
# Every message is `data: {"type": …, "game": id|null, "challenge": id|null}` with the
# event's id as the SSE `id`, so a reconnecting EventSource sends Last-Event-ID and
# resumes after it; the first message ("ready") carries the id the stream starts from.

# EventSource waits this long before reconnecting after the server ended a stream.
PAGE_RETRY_MILLISECONDS = 1000
# A tab closed is noticed at the stream's next write, which then gives its slot back:
# pages get a keep-alive this often (at most), so a player going from page to page
# does not run out of slots (STREAM_PAGE_MAX_PER_USER).
PAGE_KEEPALIVE_SECONDS = 1


def _sse(data: dict[str, Any], event_id: int | None = None) -> bytes:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return (head + "data: " + json.dumps(data, separators=(",", ":")) + "\n\n").encode()


def page_message(event: Event) -> dict[str, Any]:
    payload = event.payload
    if event.type == Event.Type.CHALLENGE:
        # A challenge's row is the challenge itself (record_challenge), not nested.
        return {"type": event.type, "game": None, "challenge": payload.get("id")}
    game = payload.get("game")
    return {
        "type": event.type,
        "game": game.get("id") if isinstance(game, dict) else None,
        "challenge": None,
    }


def page_event_lines(
    user_id: int,
    *,
    after: int | None,
    lifetime: float,
    keepalive: float,
    poll: float = 1.0,
    clock: Any = time.monotonic,
    sleep: Any = time.sleep,
) -> Iterator[bytes]:
    """Server-Sent Events for the pages of `user_id` for `lifetime` seconds: "ready",
    then one message per new event, a comment line after `keepalive` quiet seconds.

    `after` (the Last-Event-ID of a reconnecting page): resume after that id.  An
    event with a lower id may still have been committing when the page got `after`
    (see _follow), so the ids of the last SETTLE_SECONDS below it are read again: a
    page may get one event twice, which only costs it one more fetch.
    """
    started = clock()
    events = Event.objects.filter(user_id=user_id)
    if after is None:
        floor = events.aggregate(top=Max("id"))["top"] or 0
        start_id = floor
    else:
        settled = timezone.now() - datetime.timedelta(seconds=SETTLE_SECONDS)
        floor = (
            events.filter(id__lte=after, created__lt=settled).aggregate(top=Max("id"))["top"] or 0
        )
        start_id = after
    _release_connection()
    yield f"retry: {PAGE_RETRY_MILLISECONDS}\n".encode() + _sse(
        {"type": "ready", "game": None, "challenge": None}, start_id
    )
    for event in _follow(
        user_id,
        floor=floor,
        started=started,
        lifetime=lifetime,
        keepalive=keepalive,
        poll=poll,
        clock=clock,
        sleep=sleep,
    ):
        if event is None:
            yield b": keep-alive\n\n"
        else:
            yield _sse(page_message(event), event.pk)
