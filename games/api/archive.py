"""GET /api/v1/archive: the archive's filtered games as one streamed download."""

from __future__ import annotations

from typing import Any

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ErrorSerializer
from games import archive


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
            OpenApiParameter("format", str, enum=list(archive.FORMATS), description="Default agn"),
            *[
                OpenApiParameter(name, str, description=str(field.label))
                # The declared fields, not an instance: __init__ reads the tournaments
                # table, and this runs when the URLs load (migrate on a fresh database).
                for name, field in archive.ArchiveFilterForm.base_fields.items()
                if name != "tournament" or archive.has_tournaments()
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
        form = archive.ArchiveFilterForm(request.query_params)
        if not form.is_valid():
            self.request.accepted_renderer = JSONRenderer()
            self.request.accepted_media_type = JSONRenderer.media_type
            fields = {name: [str(m) for m in ms] for name, ms in form.errors.items()}
            first = next(iter(fields.values()))[0]
            return Response({"code": "invalid", "error": first, "fields": fields}, status=400)
        chunks, content_type, filename = archive.export(
            archive.archive_queryset(form.cleaned_data), fmt
        )
        response = StreamingHttpResponse(chunks, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def handle_exception(self, exc: Exception) -> Response:
        response = super().handle_exception(exc)
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return response
