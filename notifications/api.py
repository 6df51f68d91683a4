"""API: GET /api/v1/notifications (newest first, paginated), POST …/read."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ErrorSerializer
from core.requests import SignedInRequest
from games.models import Game
from notifications import services
from notifications.models import Kind, Notification


class NotificationSerializer(serializers.ModelSerializer):
    kind = serializers.ChoiceField(choices=Kind.choices)
    message = serializers.CharField(help_text="In the request's language.")
    game: serializers.PrimaryKeyRelatedField[Game] = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True
    )
    unread = serializers.SerializerMethodField()

    class Meta:
        model = Notification
        fields = ["id", "kind", "message", "params", "game", "url", "created", "read", "unread"]
        read_only_fields = fields

    def get_unread(self, notification: Notification) -> bool:
        return notification.read is None


class NotificationPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = NotificationSerializer(many=True)


class NotificationFilterSerializer(serializers.Serializer):
    unread = serializers.BooleanField(required=False, default=False, help_text="Only unread ones.")


class MarkReadSerializer(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=500,
        help_text="Which ones; absent: all of them.",
    )


class MarkedSerializer(serializers.Serializer):
    marked = serializers.IntegerField()
    unread = serializers.IntegerField()


class NotificationPagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


_errors = {
    400: OpenApiResponse(ErrorSerializer, description="`invalid` (with `fields`)"),
    401: OpenApiResponse(ErrorSerializer, description="`not_authenticated`"),
}


class NotificationsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="list_notifications",
        parameters=[NotificationFilterSerializer],
        responses={
            200: NotificationPageSerializer,
            **_errors,
            404: OpenApiResponse(ErrorSerializer, description="`not_found`: no such page"),
        },
    )
    def get(self, request: SignedInRequest) -> Response:
        params = NotificationFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        notifications = services.recent_for(
            request.user, unread_only=params.validated_data["unread"]
        )
        paginator = NotificationPagination()
        page: list[Notification] | None = paginator.paginate_queryset(
            notifications, request, view=self
        )
        return paginator.get_paginated_response(NotificationSerializer(page, many=True).data)


class MarkReadView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="mark_notifications_read",
        request=MarkReadSerializer,
        responses={200: MarkedSerializer, **_errors},
    )
    def post(self, request: SignedInRequest) -> Response:
        data = MarkReadSerializer(data=request.data)  # a JSON null body is a 400
        data.is_valid(raise_exception=True)
        marked = services.mark_read(user=request.user, ids=data.validated_data.get("ids"))
        return Response({"marked": marked, "unread": services.unread_count(request.user)})
