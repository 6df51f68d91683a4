"""REST API of game analysis and the opening explorer (routes in analysis/api_urls.py)."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from analysis import explorer, services
from analysis.models import GameAnalysis
from analysis.throttling import AnalysisThrottle, EvaluationThrottle, ExplorerThrottle
from core.api import error_responses as _errors
from core.models import Job
from games.models import Game

User = get_user_model()

# --- Serializers ------------------------------------------------------------------------


class AnalysedTurnSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    turn = serializers.CharField()
    eval = serializers.FloatField(help_text=_("White's expected score after the turn, 0..1."))
    best = serializers.CharField(help_text=_("The engine's preferred turn in that position."))
    judgement = serializers.ChoiceField(
        choices=["inaccuracy", "mistake", "blunder"],
        allow_null=True,
        help_text=_("By the drop of the mover's expected score (docs/analysis.md)."),
    )


class AnalysisSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=GameAnalysis.Status.choices)
    progress = serializers.FloatField(help_text=_("Share of the positions analysed, 0..1."))
    place_in_line = serializers.IntegerField(
        allow_null=True,
        help_text=_("While its job waits for a worker: its place in line (1: next); else null."),
    )
    error = serializers.CharField(required=False, help_text=_("Once failed: why."))
    turns = AnalysedTurnSerializer(
        many=True, required=False, help_text=_("Once done: one entry per turn, in order.")
    )


class ExplorerTurnSerializer(serializers.Serializer):
    turn = serializers.CharField()
    games = serializers.IntegerField()
    white = serializers.IntegerField(help_text=_("Of those games, won by White."))
    black = serializers.IntegerField(help_text=_("Of those games, won by Black."))
    draws = serializers.IntegerField()


class ExplorerSerializer(serializers.Serializer):
    position = serializers.CharField(help_text=_("The canonical position string."))
    games = serializers.IntegerField(help_text=_("Finished games that reached the position."))
    turns = ExplorerTurnSerializer(many=True)


class ExplorerFilterSerializer(serializers.Serializer):
    position = serializers.CharField(
        required=False, help_text=_("A position string (default: the standard start).")
    )
    player = serializers.CharField(required=False, help_text=_("Only this player's games."))
    color = serializers.ChoiceField(
        choices=["white", "black"], required=False, help_text=_("The player's colour.")
    )
    rated = serializers.BooleanField(required=False, allow_null=True, default=None)
    since = serializers.DateField(required=False, help_text=_("Finished on or after this day."))
    until = serializers.DateField(required=False, help_text=_("Finished on or before this day."))
    imported = serializers.BooleanField(
        required=False, default=True, help_text=_("false: leave imported games out.")
    )

    def validate_player(self, value: str) -> int:
        user_id = User.objects.filter(username=value).values_list("pk", flat=True).first()
        if user_id is None:
            raise serializers.ValidationError(_("There is no player with this name."))
        return int(user_id)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data.get("color") and data.get("player") is None:
            raise serializers.ValidationError({"color": _("A colour needs a player.")})
        return data


class EvaluateRequestSerializer(serializers.Serializer):
    position = serializers.CharField(help_text=_("A position string."))


class EvaluationSerializer(serializers.Serializer):
    id = serializers.CharField(help_text=_("The job's id: poll GET …/evaluations/{id}."))
    status = serializers.ChoiceField(choices=["queued", "done", "failed"])
    place_in_line = serializers.IntegerField(
        allow_null=True,
        help_text=_("While the job waits for a worker: its place in line (1: next); else null."),
    )
    position = serializers.CharField(required=False)
    eval = serializers.FloatField(required=False, help_text=_("White's expected score, 0..1."))
    best = serializers.CharField(required=False, allow_null=True)
    pv = serializers.ListField(child=serializers.CharField(), required=False)
    depth = serializers.IntegerField(required=False)


# --- Views ------------------------------------------------------------------------------


class GameAnalysisView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="get_game_analysis",
        responses={200: AnalysisSerializer, **_errors(404, e404="`not_found`: no analysis yet")},
    )
    def get(self, request: Request, game_id: int) -> Response:
        """The game's computer analysis: its job's progress, then one entry per turn."""
        analysis = get_object_or_404(GameAnalysis.objects.select_related("game"), game_id=game_id)
        return Response(services.analysis_answer(analysis))

    @extend_schema(
        operation_id="request_game_analysis",
        request=None,
        responses={
            202: OpenApiResponse(AnalysisSerializer, description="Queued or running"),
            200: OpenApiResponse(AnalysisSerializer, description="Already done"),
            **_errors(
                401,
                404,
                409,
                429,
                503,
                e409="`game_not_finished`: only finished games are analysed",
                e429="`busy`: your analyses waiting or running reach JOBS_ANALYSIS_PER_USER; "
                "or `throttled`",
                e503="`busy`: the analyses waiting reach JOBS_ANALYSIS_BACKLOG",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Ask for the game's computer analysis (a job); asking again gives the same job.
        Throttled per user, except for the game's own players."""
        game = get_object_or_404(Game, pk=game_id)
        is_player = game.color_of(request.user.pk) is not None
        if not is_player and not GameAnalysis.objects.filter(game=game).exists():
            throttle = AnalysisThrottle()
            if not throttle.allow_request(request, self):
                raise exceptions.Throttled(throttle.wait())
        analysis, _created = services.request_analysis(game=game, user=request.user)
        analysis.refresh_from_db()
        answer = services.analysis_answer(analysis)
        done = analysis.status == GameAnalysis.Status.DONE
        return Response(answer, status=status.HTTP_200_OK if done else status.HTTP_202_ACCEPTED)


class ExplorerView(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [ExplorerThrottle]

    @extend_schema(
        operation_id="explorer",
        parameters=[ExplorerFilterSerializer],
        responses={
            200: ExplorerSerializer,
            **_errors(400, 429, e400="`invalid_position` (a bad position, the engine's reason) "
                      "or `invalid` (a bad filter, with `fields`)"),
        },
    )  # fmt: skip
    def get(self, request: Request) -> Response:
        """The turns played from a position by the archive's finished games, most played
        first, with their results."""
        params = ExplorerFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        text = data.get("position", "").strip()
        position = services.parse_position(text) if text else None
        filters = explorer.ExplorerFilters(
            player_id=data.get("player"),
            color=data.get("color"),
            rated=data.get("rated"),
            since=data.get("since"),
            until=data.get("until"),
            imported=data.get("imported", True),
        )
        from engine import Position

        return Response(explorer.explore(position or Position.standard(), filters))


class EvaluationsView(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [EvaluationThrottle]

    @extend_schema(
        operation_id="evaluate_position",
        request=EvaluateRequestSerializer,
        responses={
            202: EvaluationSerializer,
            **_errors(
                400,
                429,
                503,
                e429="`busy`: your evaluations waiting or running reach "
                "JOBS_EVALUATION_PER_USER (visitors share JOBS_EVALUATION_ANONYMOUS); "
                "or `throttled`",
                e503="`busy`: the evaluations waiting reach JOBS_EVALUATION_BACKLOG",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        """Evaluate one position (the analysis board): a short job; poll its id."""
        params = EvaluateRequestSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        position = services.parse_position(params.validated_data["position"].strip())
        job = services.request_evaluation(position=position, user=request.user)
        return Response(services.evaluation_answer(job), status=status.HTTP_202_ACCEPTED)


class EvaluationView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="get_evaluation", responses={200: EvaluationSerializer, **_errors(404)}
    )
    def get(self, request: Request, job_id: str) -> Response:
        """An evaluation job: queued (with its place in line while it waits), or done with
        the engine's verdict, or failed.  Kept JOBS_KEEP_HOURS after it ends."""
        try:
            public_id = uuid.UUID(job_id)
        except ValueError:
            raise exceptions.NotFound() from None
        job = get_object_or_404(Job, kind=services.EVALUATION_JOB, public_id=public_id)
        return Response(services.evaluation_answer(job))
