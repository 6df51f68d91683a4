"""REST API v1. Views parse (serializers), call a service, and format the answer."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.services import blocked_either_way
from accounts.throttling import TurnsThrottle
from core.api import Pagination
from core.api import error_responses as _errors
from core.requests import SignedInRequest
from games import services
from games.api import serializers as s
from games.models import Challenge, Game

User = get_user_model()


def _games() -> QuerySet[Game]:
    # Constant query count whatever the page size: users joined, turns prefetched.
    return Game.objects.select_related("white", "black").prefetch_related("turns")


def _game_response(game_id: int, http_status: int = status.HTTP_200_OK) -> Response:
    return Response(s.game_payload(_games().get(pk=game_id)), status=http_status)


# --- Challenges --------------------------------------------------------------------------


class ChallengesView(APIView):
    pagination_class = Pagination  # documents the paginated answer in the schema
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="list_challenges",
        parameters=[s.ChallengeFilterSerializer],
        responses={200: s.ChallengeSerializer(many=True), **_errors(400, 401, 404)},
    )
    def get(self, request: SignedInRequest) -> Response:
        params = s.ChallengeFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        challenges = Challenge.objects.select_related("created_by", "opponent")
        if params.validated_data["open"]:
            challenges = (
                challenges.filter(status=Challenge.Status.OPEN, opponent__isnull=True)
                .exclude(created_by=request.user)
                .exclude(created_by__in=blocked_either_way(request.user.pk))  # never offered
            )
        else:
            challenges = challenges.filter(Q(created_by=request.user) | Q(opponent=request.user))
        paginator = Pagination()
        page = paginator.paginate_queryset(challenges, request, view=self)
        return paginator.get_paginated_response(s.ChallengeSerializer(page, many=True).data)

    @extend_schema(
        operation_id="create_challenge",
        request=s.ChallengeRequestSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description=(
                    "Any string of 1–64 printable ASCII characters: a retry with the same "
                    "key answers 200 with the challenge the first request made."
                ),
            )
        ],
        responses={
            201: s.ChallengeSerializer,
            200: OpenApiResponse(
                s.ChallengeSerializer, description="Made before with this Idempotency-Key"
            ),
            **_errors(
                400,
                401,
                403,
                e400="`invalid` or `unknown_player`",
                e403="`blocked`: one of you has blocked the other",
            ),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        data = s.ChallengeRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        key = request.headers.get("Idempotency-Key")
        if key is None:
            challenge = services.create_challenge(creator=request.user, **data.validated_data)
            created = True
        else:
            if not (0 < len(key) <= 64 and key.isascii() and key.isprintable()):
                raise ValidationError(
                    {"Idempotency-Key": [_("1 to 64 printable ASCII characters.")]}
                )
            challenge, created = services.create_challenge_once(
                creator=request.user, idempotency_key=key, **data.validated_data
            )
        return Response(
            s.ChallengeSerializer(challenge).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class ChallengeDetailView(APIView):
    @extend_schema(
        operation_id="get_challenge", responses={200: s.ChallengeSerializer, **_errors(404)}
    )
    def get(self, request: Request, challenge_id: int) -> Response:
        challenge = get_object_or_404(
            Challenge.objects.select_related("created_by", "opponent"), pk=challenge_id
        )
        return Response(s.ChallengeSerializer(challenge).data)


class AcceptChallengeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="accept_challenge",
        request=None,
        responses={
            201: s.AcceptedSerializer,
            **_errors(
                401,
                403,
                404,
                e403="`not_your_challenge`, or `blocked` (one of you has blocked the other)",
            ),
            409: OpenApiResponse(
                s.ErrorSerializer, description="`challenge_closed` or `own_challenge`"
            ),
        },
    )
    def post(self, request: SignedInRequest, challenge_id: int) -> Response:
        challenge = get_object_or_404(Challenge, pk=challenge_id)
        game = services.accept_challenge(challenge=challenge, player=request.user)
        return Response(
            {"game": s.game_payload(_games().get(pk=game.pk))},
            status=status.HTTP_201_CREATED,
        )


class DeclineChallengeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="decline_challenge",
        request=None,
        responses={
            200: s.ChallengeSerializer,
            **_errors(401, 403, 404),
            409: OpenApiResponse(s.ErrorSerializer, description="`challenge_closed`"),
        },
    )
    def post(self, request: SignedInRequest, challenge_id: int) -> Response:
        challenge = get_object_or_404(Challenge, pk=challenge_id)
        challenge = services.decline_challenge(challenge=challenge, player=request.user)
        return Response(s.ChallengeSerializer(challenge).data)


class CancelChallengeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="cancel_challenge",
        request=None,
        responses={
            200: s.ChallengeSerializer,
            **_errors(401, 403, 404),
            409: OpenApiResponse(s.ErrorSerializer, description="`challenge_closed`"),
        },
    )
    def post(self, request: SignedInRequest, challenge_id: int) -> Response:
        challenge = get_object_or_404(Challenge, pk=challenge_id)
        challenge = services.cancel_challenge(challenge=challenge, player=request.user)
        return Response(s.ChallengeSerializer(challenge).data)


# --- Games --------------------------------------------------------------------------------


class GamesView(APIView):
    pagination_class = Pagination  # documents the paginated answer in the schema

    @extend_schema(
        operation_id="list_games",
        parameters=[s.GameFilterSerializer],
        responses={200: s.GameSerializer(many=True), **_errors(400, 404)},
    )
    def get(self, request: Request) -> Response:
        params = s.GameFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        filters = params.validated_data
        games = _games()
        if "player" in filters:
            games = games.filter(
                Q(white__username=filters["player"]) | Q(black__username=filters["player"])
            )
        if "status" in filters:
            games = games.filter(status=filters["status"])
        if "since" in filters:
            games = games.filter(created__gte=filters["since"])
        if "until" in filters:
            games = games.filter(created__lt=filters["until"])
        paginator = Pagination()
        page = paginator.paginate_queryset(games, request, view=self)
        return paginator.get_paginated_response(s.GameSerializer(page, many=True).data)


class GameDetailView(APIView):
    @extend_schema(operation_id="get_game", responses={200: s.GameSerializer, **_errors(404)})
    def get(self, request: Request, game_id: int) -> Response:
        return Response(s.game_payload(get_object_or_404(_games(), pk=game_id)))


class LegalTurnsView(APIView):
    @extend_schema(
        operation_id="legal_turns", responses={200: s.LegalTurnsSerializer, **_errors(404)}
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        turns: list[str] = []
        if game.status == Game.Status.ACTIVE:
            position = services.replay(game)
            turns = sorted(str(turn) for turn in position.legal_turns)
        return Response({"ply": game.ply + 1, "turns": turns})


class TurnsView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [TurnsThrottle]

    @extend_schema(
        operation_id="play_turn",
        request=s.TurnRequestSerializer,
        responses={
            201: OpenApiResponse(s.GameSerializer, description="Turn stored"),
            200: OpenApiResponse(
                s.GameSerializer,
                description="The same turn was already stored at this ply by you (retry)",
            ),
            **_errors(
                400,
                401,
                403,
                404,
                422,
                429,
                e400="`invalid` (fields) or `invalid_turn` (notation syntax)",
            ),
            409: OpenApiResponse(
                s.ErrorSerializer,
                description="`stale_ply` (with `expected_ply`), `not_your_turn`, `game_over` or `wrong_phase`",
            ),
        },
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        # The service locks and reads the game itself: no query of its own for it here.
        # Whatever fails, a game that does not exist is a 404 first, as it always was.
        try:
            body = s.TurnRequestSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            ply, text = body.validated_data["ply"], body.validated_data["turn"]
            game, created = services.play_turn(
                game=Game(pk=game_id), player=request.user, text=text, ply=ply
            )
        except Exception:
            get_object_or_404(Game, pk=game_id)
            raise
        # The service's game is the row as stored, players joined, with the texts of all
        # its turns (GameSerializer reads them from there: no query for the turns).
        return Response(
            s.game_payload(game),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


_game_action_errors = {
    **_errors(400, 401, 403, 404),
    409: OpenApiResponse(
        s.ErrorSerializer, description="`wrong_phase`, `not_your_turn` or `game_over`"
    ),
}


class SetupView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="pie_setup",
        request=s.SetupRequestSerializer,
        responses={200: s.GameSerializer, **_game_action_errors},
        description="Pie opening, step 1: the player shown as White places both adaptoids.",
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        data = s.SetupRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.setup_pie(game=game, player=request.user, **data.validated_data)
        return _game_response(game.pk)


class ChooseView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="pie_choose",
        request=s.ChooseRequestSerializer,
        responses={200: s.GameSerializer, **_game_action_errors},
        description="Pie opening, step 2: the other player chooses a colour; the game starts.",
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        data = s.ChooseRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.choose_color(game=game, player=request.user, color=data.validated_data["color"])
        return _game_response(game.pk)


class ResignView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="resign",
        request=None,
        responses={200: s.GameSerializer, **_game_action_errors},
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        services.resign(game=game, player=request.user)
        return _game_response(game.pk)


# --- Health -------------------------------------------------------------------------------
