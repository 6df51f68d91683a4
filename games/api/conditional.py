"""PUT/GET/DELETE /api/v1/games/{id}/conditional: the waiting player's conditional turns
(games.conditional does the work)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.throttling import ConditionalThrottle
from core.api import ErrorSerializer
from core.api import error_responses as _errors
from core.requests import SignedInRequest
from games import conditional
from games.models import Game

_LINES_HELP = _(
    "Each line alternates the opponent's turn and your reply, starting with the "
    "opponent's, and ends on a reply (an even number of turns, 2 to 40; at most 64 lines)."
)


class ConditionalSerializer(serializers.Serializer):
    ply = serializers.IntegerField(
        min_value=1, help_text=_("The opponent's next turn: the game's ply + 1.")
    )
    lines = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(max_length=64)),
        help_text=_LINES_HELP,
    )


def _answer(lines: conditional.Lines) -> Response:
    return Response(ConditionalSerializer({"ply": lines.ply, "lines": lines.lines}).data)


_line_error = _("with `line` and `index` (from 0) of the turn in the request, `turn` and `reason`")


class ConditionalView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [ConditionalThrottle]  # PUT only: a full set costs ~0.35 s

    @extend_schema(
        operation_id="get_conditional",
        responses={
            200: ConditionalSerializer,
            **_errors(401),
            404: OpenApiResponse(
                ErrorSerializer,
                description="`not_found`: no such game, or you have no lines in it "
                "(nobody else's lines are shown)",
            ),
        },
    )
    def get(self, request: SignedInRequest, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        lines = conditional.lines_of(game=game, player=request.user)
        if lines is None:
            raise NotFound()
        return _answer(lines)

    @extend_schema(
        operation_id="set_conditional",
        request=ConditionalSerializer,
        responses={
            200: OpenApiResponse(
                ConditionalSerializer,
                description="Stored: the merged lines (each path of the tree), canonical",
            ),
            **_errors(
                400,
                401,
                404,
                429,
                e400=f"`invalid` (fields; a line of odd length) or `invalid_turn` "
                f"(notation), {_line_error}",
            ),
            403: OpenApiResponse(
                ErrorSerializer,
                description="`not_a_player`, or `not_waiting`: you are the one to move",
            ),
            409: OpenApiResponse(
                ErrorSerializer,
                description="`stale_ply` (with `expected_ply`), `game_over` or `wrong_phase`",
            ),
            422: OpenApiResponse(
                ErrorSerializer,
                description=f"`illegal_turn` {_line_error}; or `conditional_conflict`: two "
                "lines answer the same turn differently (`conflicts_with`: the other line)",
            ),
        },
        description="Replace your conditional turns in this game (an empty list deletes "
        "them). When the opponent plays the first turn of a line, your reply is played "
        "at once, in the same request.",
    )
    def put(self, request: SignedInRequest, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        body = ConditionalSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        lines = conditional.set_lines(
            game=game,
            player=request.user,
            ply=body.validated_data["ply"],
            lines=body.validated_data["lines"],
        )
        return _answer(lines)

    @extend_schema(
        operation_id="delete_conditional",
        request=None,
        responses={
            204: OpenApiResponse(description="Your lines are gone (if there were any)"),
            **_errors(401, 404),
            403: OpenApiResponse(ErrorSerializer, description="`not_a_player`"),
        },
    )
    def delete(self, request: SignedInRequest, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        conditional.delete_lines(game=game, player=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
