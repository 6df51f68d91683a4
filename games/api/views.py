"""REST API v1. Views parse (serializers), call a service, and format the answer."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import services
from games.api import serializers as s
from games.api.throttling import AccountsThrottle, TokenThrottle, TurnsThrottle
from games.models import Challenge, Game

User = get_user_model()


def _errors(*codes: int, **described: str) -> dict[int, OpenApiResponse]:
    """OpenAPI entries for error answers: every one has the {code, error} body."""
    descriptions = {
        400: "Invalid input (code `invalid`, with `fields`) or another 400 code of this endpoint",
        401: "Missing or invalid token (`not_authenticated`, `authentication_failed`)",
        403: "Not allowed (`not_a_player`, `not_your_challenge`, `permission_denied`)",
        404: "No such object (`not_found`)",
        409: "The state does not allow it",
        422: "The engine refuses the turn (`illegal_turn`, with its reason)",
        429: "Too many requests (`throttled`); see the Retry-After header",
    }
    return {
        code: OpenApiResponse(
            s.ErrorSerializer, description=described.get(f"e{code}", descriptions[code])
        )
        for code in codes
    }


def _games() -> QuerySet[Game]:
    # Constant query count whatever the page size: users joined, turns prefetched.
    return Game.objects.select_related("white", "black").prefetch_related("turns")


def _game_response(game_id: int, http_status: int = status.HTTP_200_OK) -> Response:
    return Response(s.GameSerializer(_games().get(pk=game_id)).data, status=http_status)


class GamePagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


# --- Accounts ----------------------------------------------------------------------------


class AccountsView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [AccountsThrottle]

    @extend_schema(
        operation_id="create_account",
        request=s.CredentialsSerializer,
        responses={
            201: s.AccountSerializer,
            **_errors(
                400,
                429,
                e400="Invalid username (`invalid`) or weak password (`weak_password`, with the reasons)",
            ),
            409: OpenApiResponse(s.ErrorSerializer, description="`username_taken`"),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = s.CredentialsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.register_account(**data.validated_data)
        return Response(
            {"id": user.pk, "username": user.get_username()}, status=status.HTTP_201_CREATED
        )


class TokenView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [TokenThrottle]

    @extend_schema(
        operation_id="create_token",
        request=s.CredentialsSerializer,
        responses={
            200: s.TokenSerializer,
            **_errors(400, 429),
            401: OpenApiResponse(s.ErrorSerializer, description="`bad_credentials`"),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = s.CredentialsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response({"token": services.issue_token(**data.validated_data)})


# --- Challenges --------------------------------------------------------------------------


class ChallengesView(APIView):
    pagination_class = GamePagination  # documents the paginated answer in the schema
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="list_challenges",
        parameters=[s.ChallengeFilterSerializer],
        responses={200: s.ChallengeSerializer(many=True), **_errors(400, 401, 404)},
    )
    def get(self, request: Request) -> Response:
        params = s.ChallengeFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        challenges = Challenge.objects.select_related("created_by", "opponent")
        if params.validated_data["open"]:
            challenges = challenges.filter(
                status=Challenge.Status.OPEN, opponent__isnull=True
            ).exclude(created_by=request.user)
        else:
            challenges = challenges.filter(Q(created_by=request.user) | Q(opponent=request.user))
        paginator = GamePagination()
        page = paginator.paginate_queryset(challenges, request, view=self)
        return paginator.get_paginated_response(s.ChallengeSerializer(page, many=True).data)

    @extend_schema(
        operation_id="create_challenge",
        request=s.ChallengeRequestSerializer,
        responses={
            201: s.ChallengeSerializer,
            **_errors(400, 401, e400="`invalid` or `unknown_player`"),
        },
    )
    def post(self, request: Request) -> Response:
        data = s.ChallengeRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        challenge = services.create_challenge(creator=request.user, **data.validated_data)
        return Response(s.ChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)


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
            **_errors(401, 403, 404),
            409: OpenApiResponse(
                s.ErrorSerializer, description="`challenge_closed` or `own_challenge`"
            ),
        },
    )
    def post(self, request: Request, challenge_id: int) -> Response:
        challenge = get_object_or_404(Challenge, pk=challenge_id)
        game = services.accept_challenge(challenge=challenge, player=request.user)
        return Response(
            {"game": s.GameSerializer(_games().get(pk=game.pk)).data},
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
    def post(self, request: Request, challenge_id: int) -> Response:
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
    def post(self, request: Request, challenge_id: int) -> Response:
        challenge = get_object_or_404(Challenge, pk=challenge_id)
        challenge = services.cancel_challenge(challenge=challenge, player=request.user)
        return Response(s.ChallengeSerializer(challenge).data)


# --- Games --------------------------------------------------------------------------------


class GamesView(APIView):
    pagination_class = GamePagination  # documents the paginated answer in the schema

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
        paginator = GamePagination()
        page = paginator.paginate_queryset(games, request, view=self)
        return paginator.get_paginated_response(s.GameSerializer(page, many=True).data)


class GameDetailView(APIView):
    @extend_schema(operation_id="get_game", responses={200: s.GameSerializer, **_errors(404)})
    def get(self, request: Request, game_id: int) -> Response:
        return Response(s.GameSerializer(get_object_or_404(_games(), pk=game_id)).data)


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


def turn_request(data: Any) -> tuple[int, str]:
    """(ply, turn) of a turn submission, as TurnRequestSerializer validates it.

    A well-formed body (an int ply >= 1, a short ASCII turn) is read directly: DRF
    deep-copies a serializer's fields for every instance, a few percent of a turn's
    CPU.  Anything else goes through the serializer, for its exact error messages.
    """
    if isinstance(data, dict):
        ply, text = data.get("ply"), data.get("turn")
        if type(ply) is int and ply >= 1 and type(text) is str:
            text = text.strip()  # as the serializer's CharField trims it
            if 0 < len(text) <= 64 and text.isascii() and "\x00" not in text:
                return ply, text
    serializer = s.TurnRequestSerializer(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data["ply"], serializer.validated_data["turn"]


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
    def post(self, request: Request, game_id: int) -> Response:
        # The service locks and reads the game itself: no query of its own for it here.
        # Whatever fails, a game that does not exist is a 404 first, as it always was.
        try:
            ply, text = turn_request(request.data)
            game, created = services.play_turn(
                game=Game(pk=game_id), player=request.user, text=text, ply=ply
            )
        except Exception:
            get_object_or_404(Game, pk=game_id)
            raise
        # The service's game is the row as stored, players joined; a new turn leaves the
        # texts of all the turns on it too (a retried one: read them, one query).
        texts = game.turn_texts
        if texts is None:
            texts = list(game.turns.order_by("ply").values_list("text", flat=True))
        return Response(
            s.game_answer(game, texts),
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
    def post(self, request: Request, game_id: int) -> Response:
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
    def post(self, request: Request, game_id: int) -> Response:
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
    def post(self, request: Request, game_id: int) -> Response:
        game = get_object_or_404(Game, pk=game_id)
        services.resign(game=game, player=request.user)
        return _game_response(game.pk)


# --- Health -------------------------------------------------------------------------------


def healthz(request: HttpRequest) -> HttpResponse:
    """Database, cache and broker status: 200 when all answer, 503 otherwise."""
    from django.core.cache import cache

    from config.celery import app as celery_app

    checks: dict[str, str] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        checks["database"] = "ok"
    except Exception as exc:  # noqa: BLE001 - any failure means "down", reported as text
        checks["database"] = f"error: {exc.__class__.__name__}"
    try:
        cache.set("healthz", "ok", 10)
        checks["cache"] = "ok" if cache.get("healthz") == "ok" else "error: value not stored"
    except Exception as exc:  # noqa: BLE001
        checks["cache"] = f"error: {exc.__class__.__name__}"
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0.2, timeout=3)
        checks["broker"] = "ok"
    except Exception as exc:  # noqa: BLE001
        checks["broker"] = f"error: {exc.__class__.__name__}"
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503
    )
