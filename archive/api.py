"""The archive's API: ``GET /api/v1/archive`` (the filtered games as one streamed
download), ``GET /api/v1/games/<id>/record`` (one game),
``GET /api/v1/tournaments/<id>/games`` (a tournament's games), and the .agn import:
``POST /api/v1/imports`` (202, a job) and ``GET /api/v1/imports/<id>`` (its progress
and per-game report).

The routes keep their names in the ``api`` and ``tournaments_api`` namespaces
(config/urls.py mounts archive/urls.py's lists there).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from archive import forms, imports, records, services
from archive.models import ImportJob
from core.requests import SignedInRequest
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


# --- .agn import jobs ------------------------------------------------------------------


class ImportUploadSerializer(serializers.Serializer):
    file = serializers.FileField(help_text=_("An .agn file (UTF-8 text)."))


class ImportReportEntrySerializer(serializers.Serializer):
    game = serializers.IntegerField(help_text=_("The game's number in the file, from 1."))
    status = serializers.ChoiceField(choices=["stored", "duplicate", "rejected"])
    game_id = serializers.IntegerField(
        allow_null=True, help_text=_("The archive's game (stored, or already there).")
    )
    turn = serializers.IntegerField(allow_null=True, help_text=_("The rejected turn's number."))
    code = serializers.CharField(
        allow_blank=True, help_text=_("Why it was rejected (empty otherwise).")
    )
    message = serializers.CharField(help_text=_("What happened, in the request's language."))


class ImportJobSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=ImportJob.Status.choices)
    url = serializers.CharField()
    file_name = serializers.CharField(allow_blank=True)
    total = serializers.IntegerField(allow_null=True, help_text=_("Games in the file."))
    processed = serializers.IntegerField()
    stored = serializers.IntegerField()
    duplicates = serializers.IntegerField()
    rejected = serializers.IntegerField()
    error = serializers.CharField(
        allow_blank=True, help_text=_("Why the whole job failed: a code, or empty.")
    )
    error_detail = serializers.CharField(allow_blank=True)
    created = serializers.DateTimeField()
    finished = serializers.DateTimeField(allow_null=True)
    place_in_line = serializers.IntegerField(
        allow_null=True,
        help_text=_("While the job waits for a worker: its place in line (1: next); else null."),
    )
    report = ImportReportEntrySerializer(many=True, required=False)


def import_job_json(job: ImportJob, *, report: bool = True) -> dict[str, Any]:
    """A job as the API shows it; texts in the active language."""
    data: dict[str, Any] = {
        "id": job.pk,
        "status": job.status,
        "url": reverse("api:import-job", args=[job.pk]),
        "file_name": job.file_name,
        "total": job.total,
        "processed": job.processed,
        "stored": job.stored,
        "duplicates": job.duplicates,
        "rejected": job.rejected,
        "error": job.error_code,
        "error_detail": imports.job_error_text(job),
        "created": job.created.isoformat(),
        "finished": job.finished.isoformat() if job.finished else None,
        "place_in_line": imports.import_place(job) if job.is_active else None,
    }
    if report:
        entries = [imports.ReportEntry.from_json(item) for item in job.report]
        data["report"] = [
            {**entry.as_json(), "message": imports.entry_text(entry)} for entry in entries
        ]
        for item in data["report"]:
            item.pop("params")
    return data


class ImportJobsView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        operation_id="import_create",
        tags=["archive"],
        description=(
            "Queue an .agn import. The games are checked and stored by a worker; follow "
            "`url` (also the `Location` header) for progress and the per-game report. "
            "A game already in the archive (same start, turns, result and players) is "
            "reported as `duplicate`, never stored twice."
        ),
        request={"multipart/form-data": ImportUploadSerializer},
        responses={
            202: ImportJobSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="`invalid` (no file), `import_file_refused` (too large, not UTF-8)",
            ),
            401: OpenApiResponse(ErrorSerializer, description="`not_authenticated`"),
            415: OpenApiResponse(
                ErrorSerializer, description="`unsupported_media_type`: not multipart/form-data"
            ),
            429: OpenApiResponse(
                ErrorSerializer,
                description="`busy`: the user's imports waiting or running reach "
                "IMPORT_MAX_ACTIVE_JOBS; see Retry-After",
            ),
            503: OpenApiResponse(
                ErrorSerializer,
                description="`busy`: the imports waiting on the site reach JOBS_IMPORT_BACKLOG; "
                "see Retry-After",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        upload = ImportUploadSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        file = upload.validated_data["file"]
        job = imports.create_job(
            owner=request.user, text=imports.read_upload(file), file_name=file.name or ""
        )
        data = import_job_json(job, report=False)
        return Response(data, status=status.HTTP_202_ACCEPTED, headers={"Location": data["url"]})


class ImportJobView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="import_detail",
        tags=["archive"],
        description="An import job of the requesting user: status, progress, per-game report.",
        responses={
            200: ImportJobSerializer,
            401: OpenApiResponse(ErrorSerializer, description="`not_authenticated`"),
            404: OpenApiResponse(ErrorSerializer, description="`not_found` (or not yours)"),
        },
    )
    def get(self, request: SignedInRequest, job_id: int) -> Response:
        job = get_object_or_404(
            ImportJob.objects.filter(owner=request.user).defer("text", "records"), pk=job_id
        )
        return Response(import_job_json(job))
