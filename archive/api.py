"""The archive's API: ``GET /api/v1/archive`` (the filtered games as one streamed
download), ``GET /api/v1/games/<id>/record`` (one game) and
``GET /api/v1/tournaments/<id>/games`` (a tournament's games).

The routes keep their names in the ``api`` and ``tournaments_api`` namespaces
(config/urls.py mounts archive/urls.py's lists there).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from archive import forms, records, services
from engine import write_game
from games.api.serializers import ErrorSerializer
from tournaments.api.views import tournaments_queryset


def _renderer(fmt: str, media_type: str) -> type[BaseRenderer]:
    # Lets DRF accept ?format=agn|ndjson|zip; the view streams the body itself.
    return type(
        f"{fmt.title()}Renderer",
        (BaseRenderer,),
        {"media_type": media_type, "format": fmt, "render": lambda self, data, *a, **k: data},
    )


class ArchiveView(APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = [
        _renderer("agn", "text/plain"),
        _renderer("ndjson", "application/x-ndjson"),
        _renderer("zip", "application/zip"),
        JSONRenderer,
    ]

    @extend_schema(
        operation_id="archive_export",
        parameters=[
            OpenApiParameter("format", str, enum=list(services.FORMATS), description="Default agn"),
            *[
                OpenApiParameter(name, str, description=str(field.label))
                # The declared fields, not an instance: __init__ reads the tournaments
                # table, and this runs when the URLs load (migrate on a fresh database).
                for name, field in forms.ArchiveFilterForm.base_fields.items()
            ],
        ],
        responses={
            (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="Games as .agn"),
            (200, "application/x-ndjson"): OpenApiResponse(
                OpenApiTypes.STR, description="One JSON object per game and line"
            ),
            (200, "application/zip"): OpenApiResponse(
                OpenApiTypes.BINARY, description="A zip holding the .agn file"
            ),
            400: OpenApiResponse(ErrorSerializer, description="`invalid` filter (with `fields`)"),
            404: OpenApiResponse(ErrorSerializer, description="`not_found`: unknown `format`"),
        },
        auth=[],
    )
    def get(self, request: Request) -> Any:
        fmt = request.query_params.get("format") or "agn"
        form = forms.ArchiveFilterForm(request.query_params)
        if not form.is_valid():
            self.request.accepted_renderer = JSONRenderer()
            self.request.accepted_media_type = JSONRenderer.media_type
            fields = {name: [str(m) for m in ms] for name, ms in form.errors.items()}
            first = next(iter(fields.values()))[0]
            return Response({"code": "invalid", "error": first, "fields": fields}, status=400)
        chunks, content_type, filename = services.export(
            services.archive_queryset(form.cleaned_data), fmt
        )
        response = StreamingHttpResponse(chunks, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def handle_exception(self, exc: Exception) -> Response:
        response = super().handle_exception(exc)
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return response


class RecordSerializer(serializers.Serializer):
    headers = serializers.DictField(child=serializers.CharField())
    start = serializers.CharField()
    turns = serializers.ListField(child=serializers.CharField())
    result = serializers.CharField()
    text = serializers.CharField(help_text=_("The same record as .agn text."))


class PlainTextRenderer(BaseRenderer):
    media_type = "text/plain"
    format = "agn"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        return data.encode("utf-8") if isinstance(data, str) else str(data).encode("utf-8")


class RecordView(APIView):
    renderer_classes = [PlainTextRenderer, JSONRenderer]

    @extend_schema(
        operation_id="game_record",
        parameters=[
            OpenApiParameter(
                "format", str, enum=["agn", "json"], description="Default agn (text/plain)"
            ),
            OpenApiParameter(
                "evals",
                str,
                enum=["1"],
                description="1: the computer analysis's evaluations as {[%eval 0.63]} comments",
            ),
        ],
        responses={
            (200, "text/plain"): OpenApiResponse(
                OpenApiTypes.STR, description="The .agn game record"
            ),
            (200, "application/json"): RecordSerializer,
            404: OpenApiResponse(ErrorSerializer, description="No such object (`not_found`)"),
            409: OpenApiResponse(
                ErrorSerializer, description="`wrong_phase`: pie pieces not placed yet"
            ),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = records.one_game(game_id)
        if game is None:
            raise Http404
        with_evaluations = request.query_params.get("evals") == "1"
        record = game.record(records.evaluations(game_id) if with_evaluations else None)
        text = write_game(record)
        if request.accepted_renderer.format == "json":
            return Response(
                {
                    "headers": record.headers,
                    "start": record.start,
                    "turns": record.turns,
                    "result": record.result,
                    "text": text,
                }
            )
        response = Response(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="adaptoid-game-{game_id}.agn"'
        return response

    def handle_exception(self, exc: Exception) -> Response:
        # Errors are JSON even when the record itself would have been plain text.
        response = super().handle_exception(exc)
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return response


class TournamentGamesView(APIView):
    @extend_schema(
        operation_id="tournament_games",
        tags=["tournaments"],
        description="Every started game of the tournament as one .agn file, round by round.",
        responses={
            (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description=".agn records"),
            404: OpenApiResponse(ErrorSerializer, description="`not_found`"),
        },
        auth=[],
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        tournament = get_object_or_404(tournaments_queryset(), pk=tournament_id)
        response = HttpResponse(
            services.tournament_agn(tournament), content_type="text/plain; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.agn"'
        return response
