"""REST API for bots and bot matches (routes in bots/api_urls.py)."""

from __future__ import annotations

from typing import Any, cast

from django.conf import settings
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bots import services as bots
from bots.models import BotMatch
from core.api import ErrorSerializer
from core.api import Pagination as GamePagination
from core.api import error_responses as _errors
from core.requests import SignedInRequest

# --- Serializers ------------------------------------------------------------------------


class BotMatchRequestSerializer(serializers.Serializer):
    white = serializers.CharField(
        max_length=150, help_text=_("Username of a built-in bot; it has White in odd games.")
    )
    black = serializers.CharField(max_length=150, help_text=_("Username of another built-in bot."))
    games = serializers.IntegerField(
        min_value=1,
        max_value=settings.BOT_MATCH_MAX_GAMES,
        help_text=_("Number of games, 1 to BOT_MATCH_MAX_GAMES (100)."),
    )
    seconds_per_turn = serializers.FloatField(
        min_value=0.01, max_value=10.0, help_text=_("Thinking time per turn, 0.01 to 10 seconds.")
    )
    rated = serializers.BooleanField(
        default=False,
        help_text=_("Always false: bot matches are unrated (true is refused with `invalid`)."),
    )


class BotMatchGameSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    id = serializers.IntegerField(source="game.id")
    white = serializers.CharField(source="game.white.username")
    black = serializers.CharField(source="game.black.username")
    status = serializers.CharField(source="game.status")
    result = serializers.CharField(source="game.result")
    termination = serializers.CharField(source="game.termination", allow_blank=True)
    ply = serializers.IntegerField(source="game.ply")


class BotMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    white = serializers.CharField(source="white.username")
    black = serializers.CharField(source="black.username")
    created_by = serializers.CharField(source="created_by.username")
    status = serializers.ChoiceField(choices=BotMatch.Status.choices)
    total = serializers.IntegerField(source="games", help_text=_("Games in the match."))
    played = serializers.SerializerMethodField(help_text=_("Games finished so far."))
    score = serializers.SerializerMethodField(
        help_text=_(
            "Points so far from `white`'s point of view, as text: "
            "'3.5-1.5' means white's bot 3.5, black's bot 1.5 (a win 1, a draw ½)."
        )
    )
    white_points = serializers.SerializerMethodField()
    black_points = serializers.SerializerMethodField()
    seconds_per_turn = serializers.FloatField()
    rated = serializers.BooleanField()
    created = serializers.DateTimeField()
    finished = serializers.DateTimeField(allow_null=True)
    game_list = serializers.SerializerMethodField(
        help_text=_("The games started so far, by number (odd: `white` has White).")
    )

    def _score(self, match: BotMatch) -> tuple[float, float, int]:
        cache = cast(dict[str, Any], self.context).setdefault("scores", {})
        if match.pk not in cache:
            cache[match.pk] = bots.match_score(match)
        return cache[match.pk]

    def get_played(self, match: BotMatch) -> int:
        return self._score(match)[2]

    def get_score(self, match: BotMatch) -> str:
        white, black, _played = self._score(match)
        return f"{bots.format_points(white)}-{bots.format_points(black)}"

    def get_white_points(self, match: BotMatch) -> float:
        return self._score(match)[0]

    def get_black_points(self, match: BotMatch) -> float:
        return self._score(match)[1]

    @extend_schema_field(BotMatchGameSerializer(many=True))
    def get_game_list(self, match: BotMatch) -> list[dict[str, Any]]:
        entries = match.entries.select_related("game__white", "game__black").order_by("number")
        return list(BotMatchGameSerializer(entries, many=True).data)


class BotSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField(source="profile.display_name")
    engine = serializers.CharField(source="profile.bot_engine")
    level = serializers.IntegerField(source="profile.bot_level")
    rating = serializers.FloatField(source="profile.rating")


class BecomeBotSerializer(serializers.Serializer):
    username = serializers.CharField(source="user.username")
    is_bot = serializers.BooleanField()


# --- Views ---------------------------------------------------------------------------------


def _matches() -> QuerySet[BotMatch]:
    return BotMatch.objects.select_related("white", "black", "created_by")


class BotsView(APIView):
    @extend_schema(operation_id="list_bots", responses={200: BotSerializer(many=True)})
    def get(self, request: Request) -> Response:
        """The built-in bots anybody can challenge (their challenges are accepted at once)."""
        return Response(BotSerializer(bots.builtin_bot_users(), many=True).data)


class BotMatchesView(APIView):
    pagination_class = GamePagination  # documents the paginated answer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="list_bot_matches",
        responses={200: BotMatchSerializer(many=True), **_errors(404)},
    )
    def get(self, request: Request) -> Response:
        """Bot matches, newest first (paginated)."""
        paginator = GamePagination()
        page = paginator.paginate_queryset(_matches(), request, view=self)
        return paginator.get_paginated_response(BotMatchSerializer(page, many=True).data)

    @extend_schema(
        operation_id="create_bot_match",
        request=BotMatchRequestSerializer,
        responses={
            201: BotMatchSerializer,
            **_errors(400, 401, e400="`invalid` (fields) or `unknown_bot`"),
            429: OpenApiResponse(
                ErrorSerializer,
                description="`too_many_bot_matches`: 3 running matches per user (staff unlimited)",
            ),
            503: OpenApiResponse(
                ErrorSerializer,
                description="`busy`: BOT_MATCH_MAX_RUNNING_TOTAL matches run on the site "
                "(staff unlimited); see Retry-After",
            ),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        """Start N games between two built-in bots; colours alternate, games run as tasks."""
        data = BotMatchRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = bots.create_bot_match(creator=request.user, **data.validated_data)
        return Response(
            BotMatchSerializer(_matches().get(pk=match.pk)).data, status=status.HTTP_201_CREATED
        )


class BotMatchDetailView(APIView):
    @extend_schema(
        operation_id="get_bot_match", responses={200: BotMatchSerializer, **_errors(404)}
    )
    def get(self, request: Request, match_id: int) -> Response:
        """Progress of a bot match: status, played/total, score and its games."""
        return Response(BotMatchSerializer(get_object_or_404(_matches(), pk=match_id)).data)


class BotMatchStopView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="stop_bot_match",
        request=None,
        responses={
            200: BotMatchSerializer,
            **_errors(401, 404),
            403: OpenApiResponse(
                ErrorSerializer,
                description="`not_your_bot_match`: only its creator or staff may stop it",
            ),
        },
    )
    def post(self, request: SignedInRequest, match_id: int) -> Response:
        """Start no more games; the match finishes with the games already started
        (`total` becomes their number).  Stopping a finished match changes nothing."""
        match = get_object_or_404(BotMatch, pk=match_id)
        match = bots.stop_bot_match(match=match, user=request.user)
        return Response(BotMatchSerializer(match).data)


class MeBotView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="become_bot",
        request=None,
        responses={
            200: BecomeBotSerializer,
            **_errors(401),
            409: OpenApiResponse(
                ErrorSerializer,
                description="`has_played_games`: only an account with no games can become a bot",
            ),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        """Turn my account into a bot account, for good (as on lichess).

        Refused if the account has played any game.  A bot account plays through
        this API and GET /api/v1/stream/events.  Calling it again changes nothing.
        """
        profile = bots.become_bot(user=request.user)
        return Response({"username": request.user.get_username(), "is_bot": profile.is_bot})
