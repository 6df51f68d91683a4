"""API of draw offers, aborts, rematches and private notes (games.agreements)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ErrorSerializer
from core.api import error_responses as _errors
from core.requests import SignedInRequest
from games import agreements
from games.api.serializers import ChallengeSerializer, GameSerializer, game_payload
from games.api.views import _games
from games.models import Game, GameNote


def _game_answer(game_id: int, http_status: int = status.HTTP_200_OK) -> Response:
    return Response(game_payload(_games().get(pk=game_id)), status=http_status)


class DrawView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="offer_draw",
        request=None,
        description=(
            "Offer a draw, whoever is to move. The same call by the opponent while the "
            "offer stands accepts it: the game ends 1/2-1/2, termination `agreement`. "
            "The offer lapses when its author plays a turn; `draw_offer` in the game "
            "says whose offer stands."
        ),
        responses={
            201: OpenApiResponse(GameSerializer, description="Offer made"),
            200: OpenApiResponse(
                GameSerializer,
                description="Your offer already stood (nothing changed), or you accepted "
                "your opponent's: the finished game",
            ),
            **_errors(401, 403, 404),
            409: OpenApiResponse(
                ErrorSerializer,
                description="`game_over`, `wrong_phase` or `time_expired` (accepting after "
                "the clock of the player to move ran out)",
            ),
        },
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        _, answer = agreements.offer_draw(game=game, player=request.user)
        offered = answer is agreements.DrawAnswer.OFFERED
        return _game_answer(game.pk, status.HTTP_201_CREATED if offered else status.HTTP_200_OK)

    @extend_schema(
        operation_id="cancel_draw_offer",
        request=None,
        description="Withdraw your draw offer, or decline your opponent's.",
        responses={
            200: GameSerializer,
            **_errors(401, 403, 404),
            409: OpenApiResponse(ErrorSerializer, description="`no_draw_offer` or `game_over`"),
        },
    )
    def delete(self, request: SignedInRequest, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        agreements.cancel_draw_offer(game=game, player=request.user)
        return _game_answer(game.pk)


class AbortView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="abort_game",
        request=None,
        description=(
            "Call the game off during the pie setup or before both players have made "
            "their first turn: result `*`, termination `aborted`, never rated; a "
            "tournament scores it as a double forfeit."
        ),
        responses={
            200: GameSerializer,
            **_errors(401, 403, 404),
            409: OpenApiResponse(
                ErrorSerializer,
                description="`abort_too_late`, `game_over` or `time_expired`",
            ),
        },
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        agreements.abort(game=game, player=request.user)
        return _game_answer(game.pk)


class RematchView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="rematch",
        request=None,
        description=(
            "Challenge the opponent of a finished game again: colours swapped, the same "
            "opening (or start position), time control and rated flag. The opponent "
            "accepts it like any challenge, or by asking for the rematch too."
        ),
        responses={
            201: OpenApiResponse(ChallengeSerializer, description="Rematch challenge made"),
            200: OpenApiResponse(
                ChallengeSerializer,
                description="Your rematch challenge already existed (open or accepted), "
                "or your opponent's was open and is now accepted (`game` is the new game)",
            ),
            **_errors(401, 403, 404),
            409: OpenApiResponse(ErrorSerializer, description="`game_not_over` or `no_rematch`"),
        },
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        challenge, created = agreements.rematch(game=game, player=request.user)
        challenge.refresh_from_db()
        return Response(
            ChallengeSerializer(challenge).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class NotesSerializer(serializers.Serializer):
    text = serializers.CharField(
        max_length=GameNote.MAX_LENGTH,
        allow_blank=True,
        trim_whitespace=False,
        help_text=_("Your private notes on this game, up to 5,000 characters."),
    )


class NotesView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="get_notes",
        description="Your own notes on this game (empty when you wrote none).",
        responses={200: NotesSerializer, **_errors(401, 404)},
    )
    def get(self, request: SignedInRequest, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        return Response({"text": agreements.note_text(game=game, user=request.user)})

    @extend_schema(
        operation_id="save_notes",
        request=NotesSerializer,
        description="Replace your notes on this game (players only; nobody else sees them).",
        responses={200: NotesSerializer, **_errors(400, 401, 403, 404)},
    )
    def put(self, request: SignedInRequest, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        body = NotesSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        text = agreements.save_note(game=game, user=request.user, text=body.validated_data["text"])
        return Response({"text": text})
