"""GET /api/v1/stream/events: a user's events as NDJSON, so a bot needs no polling;
GET /api/v1/stream/page-events: the same events as Server-Sent Events for the site's
pages (logged-in session), which then fetch what changed instead of polling.

A StreamingHttpResponse over ``stream.events.event_lines`` (which polls the Event
table by id: the same code on SQLite and PostgreSQL).  A connection lasts at most
STREAM_MAX_SECONDS (or ``?timeout=``, if shorter); the client then reconnects and
first gets the open challenges and running games again, so it misses nothing.

Deployment note: each open stream holds one server thread for its lifetime
(gunicorn: use threads, e.g. GUNICORN_THREADS, or an async worker), but no database
connection while it waits (stream/events.py gives it back between polls).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from typing import Any

from django.conf import settings
from django.http import StreamingHttpResponse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import authentication, permissions, serializers
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from accounts.addresses import client_address
from accounts.authentication import BearerTokenAuthentication
from accounts.models import Profile
from core.api import error_responses as _errors
from core.requests import SignedInRequest
from stream.events import PAGE_KEEPALIVE_SECONDS, event_lines, page_event_lines
from stream.slots import BUSY_RETRY_SECONDS, NoSlot, Seat, ServiceFull, stream_slot

NDJSON = "application/x-ndjson"
EVENT_STREAM = "text/event-stream"


class NDJSONRenderer(BaseRenderer):
    """Lets clients send `Accept: application/x-ndjson`; errors become one JSON line."""

    media_type = NDJSON
    format = "ndjson"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        return JSONRenderer().render(data) + b"\n"


class StreamParamsSerializer(serializers.Serializer):
    timeout = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text=_("End the stream after this many seconds (at most STREAM_MAX_SECONDS, 300)."),
    )


class _Holding:
    """The stream's lines, holding its slot until the stream ends or the client goes
    away: the server calls close() on the content (WSGI), even before the first line.
    Each line renews the stream's seat of the service's total (stream.slots.Seat)."""

    def __init__(
        self,
        slot: AbstractContextManager[Seat | None],
        lines: Iterator[bytes],
        seat: Seat | None = None,
    ) -> None:
        self.slot, self.lines, self.seat, self.held = slot, lines, seat, True

    def __iter__(self) -> _Holding:
        return self

    def __next__(self) -> bytes:
        try:
            line = next(self.lines)
        except StopIteration:
            self.close()
            raise
        if self.seat is not None:
            self.seat.renew()
        return line

    def close(self) -> None:
        if self.held:
            self.held = False
            self.slot.__exit__(None, None, None)
        close = getattr(self.lines, "close", None)
        if close is not None:
            close()


class StreamServiceBusy(Throttled):
    """The stream service's total (or the pages' share of it) is reached: 503 `busy`
    with Retry-After, answered at once by one of the threads the total leaves free."""

    status_code = 503
    default_code = "busy"


def _held_slot(
    request: SignedInRequest, *, page: bool
) -> tuple[AbstractContextManager[Seat | None], Seat | None]:
    """The request's stream slot, taken (stream.slots), and its seat; 429 when the
    account's or the address's cap is reached, 503 when the service is full (a bot
    account's NDJSON stream may take the bots' reserved seats)."""
    bot = not page and Profile.objects.filter(user_id=request.user.pk, is_bot=True).exists()
    slot = stream_slot(user_id=request.user.pk, address=client_address(request), page=page, bot=bot)
    try:
        seat = slot.__enter__()
    except ServiceFull:
        raise StreamServiceBusy(
            wait=BUSY_RETRY_SECONDS,
            detail=str(
                _("The stream service is full: the page polls for changes instead.")
                if page
                else _("The stream service is full: try again later.")
            ),
        ) from None
    except NoSlot:
        raise Throttled(
            wait=settings.STREAM_KEEPALIVE_SECONDS,
            detail=_(
                "Too many event streams open for this account or address (at most "
                "%(user)d per account, %(address)d per address): close one first."
            )
            % {
                "user": settings.STREAM_PAGE_MAX_PER_USER if page else settings.STREAM_MAX_PER_USER,
                "address": settings.STREAM_MAX_PER_ADDRESS,
            },
        ) from None
    return slot, seat


def _streaming(content: _Holding, content_type: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(content, content_type=content_type)
    # Proxies (nginx) must pass lines through at once, not buffer the stream.
    response["X-Accel-Buffering"] = "no"
    response["Cache-Control"] = "no-cache"
    return response


class _FirstRenderer(BaseContentNegotiation):
    """The stream is NDJSON whatever the client asks (`?format=`, Accept); errors are JSON."""

    def select_parser(self, request: Request, parsers: Iterable[Any]) -> Any:
        return next(iter(parsers), None)

    def select_renderer(
        self, request: Request, renderers: Iterable[Any], format_suffix: str | None = None
    ) -> tuple[Any, str]:
        first = next(iter(renderers))
        return first, first.media_type


class EventStreamView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    renderer_classes = [JSONRenderer, NDJSONRenderer]
    content_negotiation_class = _FirstRenderer

    @extend_schema(
        operation_id="stream_events",
        parameters=[StreamParamsSerializer],
        responses={
            (200, NDJSON): OpenApiResponse(
                OpenApiTypes.STR,
                description=(
                    "One JSON object per line: `challenge` (a challenge addressed to you), "
                    "`game_start` (a game of yours started or its pie phase changed), `turn` "
                    "(a turn was played in one of your games, with the game after it), "
                    "`game_finish` (with result and termination), `message` (a message in one of "
                    "your games: chat).  On connection: your open "
                    "challenges and running games.  An empty line every few seconds keeps "
                    "the connection alive.  See stream/events.py for the fields."
                ),
            ),
            **_errors(
                400,
                401,
                404,
                429,
                503,
                e404="`not_found`: unknown `format`",
                e429="`throttled`: too many streams open for this account or address",
                e503="`busy`: the stream service is full (STREAM_MAX_TOTAL; accounts that "
                "are not bots: all but STREAM_RESERVED_FOR_BOTS of it); see Retry-After",
            ),
        },
    )
    def get(self, request: SignedInRequest) -> StreamingHttpResponse:
        """The signed-in user's events, streamed (application/x-ndjson)."""
        params = StreamParamsSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        lifetime = min(
            params.validated_data.get("timeout", settings.STREAM_MAX_SECONDS),
            settings.STREAM_MAX_SECONDS,
        )
        slot, seat = _held_slot(request, page=False)
        lines = event_lines(
            request.user.pk, lifetime=lifetime, keepalive=settings.STREAM_KEEPALIVE_SECONDS
        )
        return _streaming(_Holding(slot, lines, seat), NDJSON)


class EventStreamRenderer(BaseRenderer):
    """Lets browsers send `Accept: text/event-stream` (EventSource does)."""

    media_type = EVENT_STREAM
    format = "sse"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        return JSONRenderer().render(data)


# One Server-Sent Event as a client reads it (the schema of each event of the stream).
PAGE_EVENT_SCHEMA = {
    "type": "object",
    "properties": {
        "data": {
            "type": "string",
            "description": 'JSON: {"type": …, "game": id or null, "challenge": id or null}',
        },
        "event": {"type": "string", "description": "always `message`"},
        "id": {"type": "string", "description": "the event id (for Last-Event-ID)"},
        "retry": {"type": "integer", "description": "reconnection delay, milliseconds"},
    },
    "required": ["data"],
}


class PageEventStreamView(APIView):
    # The site's pages send their session cookie (a GET: no CSRF token needed); a token
    # works too, and comes first so that a missing log-in is a 401 like the rest of the API.
    authentication_classes = [BearerTokenAuthentication, authentication.SessionAuthentication]
    permission_classes = [permissions.IsAuthenticated]
    renderer_classes = [JSONRenderer, EventStreamRenderer]
    content_negotiation_class = _FirstRenderer

    @extend_schema(
        operation_id="stream_page_events",
        parameters=[
            OpenApiParameter(
                "Last-Event-ID",
                OpenApiTypes.INT,
                OpenApiParameter.HEADER,
                description="Resume after this event id (a reconnecting EventSource sends it).",
            )
        ],
        responses={
            (200, EVENT_STREAM): OpenApiResponse(
                PAGE_EVENT_SCHEMA,
                description=(
                    "Server-Sent Events for the website's pages: first `ready`, then one "
                    'message per change, `data: {"type": …, "game": id or null, '
                    '"challenge": id or null}` with the event id as `id` (`type`: '
                    "`challenge`, `game_start`, `turn`, `game_finish`, `message`, "
                    "`draw_offer`); a comment line every few seconds keeps it alive.  "
                    "The page then fetches what changed.  Ends after STREAM_MAX_SECONDS; "
                    "EventSource reconnects and resumes (Last-Event-ID)."
                ),
            ),
            **_errors(
                400,
                401,
                429,
                503,
                e400="`invalid`: `Last-Event-ID` is not a whole number",
                e429="`throttled`: too many page streams open for this account "
                "(STREAM_PAGE_MAX_PER_USER) or address: the page polls instead",
                e503="`busy`: the pages' share of the stream service is taken "
                "(STREAM_MAX_TOTAL less STREAM_RESERVED_FOR_BOTS): the page polls instead",
            ),
        },
    )
    def get(self, request: SignedInRequest) -> StreamingHttpResponse:
        """What changed for the signed-in user, as Server-Sent Events (text/event-stream)."""
        after = _last_event_id(request)
        slot, seat = _held_slot(request, page=True)
        lines = page_event_lines(
            request.user.pk,
            after=after,
            lifetime=settings.STREAM_MAX_SECONDS,
            keepalive=min(settings.STREAM_KEEPALIVE_SECONDS, PAGE_KEEPALIVE_SECONDS),
        )
        return _streaming(_Holding(slot, lines, seat), EVENT_STREAM)


def _last_event_id(request: Request) -> int | None:
    raw = request.headers.get("Last-Event-ID", "").strip()
    if not raw:
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise ValidationError(
            {"Last-Event-ID": [_("Last-Event-ID must be a whole number (an event id).")]}
        )
    return int(raw)
