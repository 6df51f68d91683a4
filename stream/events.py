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

import json
import time
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from django.db import connection
from django.db.models import Max, Q

from accounts.models import Profile
from games.models import Challenge, Game
from stream.models import Event

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
        "opponent": challenge.opponent.get_username() if challenge.opponent_id else None,
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


def record_challenge(challenge: Challenge) -> None:
    for user_id in _listeners([challenge.opponent_id]):
        Event.objects.create(
            user_id=user_id, type=Event.Type.CHALLENGE, payload=challenge_payload(challenge)
        )


def record_game(
    game: Game,
    event_type: str,
    extra: dict[str, Any] | None = None,
    profiles: Mapping[int, Profile] | None = None,
) -> None:
    listeners = _listeners([game.white_id, game.black_id], profiles)
    # One INSERT for both players (none when neither listens, e.g. a bot match).
    Event.objects.bulk_create(
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


def event_lines(
    user_id: int,
    *,
    lifetime: float,
    keepalive: float,
    poll: float = 0.5,
    clock: Any = time.monotonic,
    sleep: Any = time.sleep,
) -> Iterator[bytes]:
    """NDJSON lines for `user_id` for `lifetime` seconds: the snapshot, then new events
    as they are committed, and an empty line after `keepalive` quiet seconds.

    Ids are given out at insert but become visible at commit, possibly out of
    order; so the stream keeps re-reading the ids above ``floor`` (the highest
    id seen more than SETTLE_SECONDS ago) and remembers what it already sent.
    """
    started = clock()
    floor = Event.objects.filter(user_id=user_id).aggregate(top=Max("id"))["top"] or 0
    snapshot = list(snapshot_lines(user_id))
    _release_connection()
    yield from snapshot
    sent: dict[int, float] = {}
    last_write = clock()
    while clock() - started < lifetime:
        now = clock()
        fresh = list(Event.objects.filter(user_id=user_id, id__gt=floor).order_by("id")[:500])
        # Read, then let go of the connection before writing to a possibly slow client
        # or sleeping: a waiting stream holds none (see _release_connection).
        _release_connection()
        for event in fresh:
            if event.pk in sent:
                continue
            sent[event.pk] = now
            last_write = now
            yield _line({"type": event.type, "id": event.pk, **event.payload})
        settled = [event_id for event_id, seen in sent.items() if now - seen > SETTLE_SECONDS]
        if settled:
            floor = max(floor, *settled)
            sent = {event_id: seen for event_id, seen in sent.items() if event_id > floor}
        if now - last_write >= keepalive:
            last_write = now
            yield b"\n"
        sleep(poll)
