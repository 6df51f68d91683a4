"""Game messages over the API (routes in chat/api_urls.py, "api" namespace)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.throttling import MessagesThrottle
from chat import services
from chat.serializers import (
    MessageRequestSerializer,
    MessageSerializer,
    ReportRequestSerializer,
    ReportSerializer,
)
from core.api import ErrorSerializer
from core.api import error_responses as _errors
from core.requests import SignedInRequest
from games.models import Game


class MessageFilterSerializer(serializers.Serializer):
    after = serializers.IntegerField(
        required=False,
        min_value=0,
        default=0,
        help_text=_("Only the messages with a larger id (to poll for new ones)."),
    )


_NOT_A_PLAYER = "`not_a_player`: only the game's players (and staff, to read)"


class MessagesView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [MessagesThrottle]

    @extend_schema(
        operation_id="list_game_messages",
        parameters=[MessageFilterSerializer],
        responses={
            200: MessageSerializer(many=True),
            **_errors(400, 401, 403, 404, e403=_NOT_A_PLAYER),
        },
        description="The game's messages, oldest first: its two players see those staff "
        "did not hide; staff see all of them (`hidden` true for the hidden ones).",
    )
    def get(self, request: SignedInRequest, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        params = MessageFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        found = services.messages_for(
            game=game, viewer=request.user, after=params.validated_data["after"]
        )
        return Response(MessageSerializer(found, many=True).data)

    @extend_schema(
        operation_id="post_game_message",
        request=MessageRequestSerializer,
        responses={
            201: MessageSerializer,
            **_errors(
                400,
                401,
                403,
                404,
                429,
                e400="`invalid` (field `text`: empty, over 500 characters, or with control "
                "or invisible characters)",
                e403=f"{_NOT_A_PLAYER}; `blocked`: one of you has blocked the other",
                e429="`throttled`: too many messages (`THROTTLE_MESSAGES`)",
            ),
        },
        description="Write to the other player of the game (plain text, one line).",
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        body = MessageRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        message = services.post_message(
            game=game, author=request.user, text=body.validated_data["text"]
        )
        return Response(MessageSerializer(message).data, status=status.HTTP_201_CREATED)


class ReportMessageView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [MessagesThrottle]

    @extend_schema(
        operation_id="report_game_message",
        request=ReportRequestSerializer,
        responses={
            201: OpenApiResponse(ReportSerializer, description="Reported to staff"),
            200: OpenApiResponse(ReportSerializer, description="You had reported it already"),
            **_errors(
                400,
                401,
                403,
                404,
                429,
                e400="`invalid` (field `reason`)",
                e403=_NOT_A_PLAYER,
                e404="`not_found`: no such game, or no such message in it that you can see",
            ),
            409: OpenApiResponse(ErrorSerializer, description="`own_message`"),
        },
        description="Report the other player's message to staff (they may hide it).",
    )
    def post(self, request: SignedInRequest, game_id: int, message_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        body = ReportRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        message = services.visible_message(game=game, message_id=message_id, viewer=request.user)
        if message is None:
            raise NotFound()
        report, created = services.report_message(
            message=message, reporter=request.user, reason=body.validated_data.get("reason", "")
        )
        return Response(
            ReportSerializer(report).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )
