"""Sign-up and bearer tokens over the API."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.api.serializers import (
    AccountSerializer,
    BlockSerializer,
    CredentialsSerializer,
    TokenSerializer,
)
from accounts.throttling import AccountsThrottle, TokenThrottle
from core.api import ErrorSerializer
from core.api import error_responses as _errors
from core.requests import SignedInRequest


class AccountsView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [AccountsThrottle]

    @extend_schema(
        operation_id="create_account",
        request=CredentialsSerializer,
        responses={
            201: AccountSerializer,
            **_errors(
                400,
                429,
                e400="Invalid username (`invalid`) or weak password (`weak_password`, with the reasons)",
            ),
            409: OpenApiResponse(ErrorSerializer, description="`username_taken`"),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = CredentialsSerializer(data=request.data)
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
        request=CredentialsSerializer,
        responses={
            200: TokenSerializer,
            **_errors(400, 429),
            401: OpenApiResponse(ErrorSerializer, description="`bad_credentials`"),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = CredentialsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response({"token": services.issue_token(**data.validated_data, request=request)})


class PlayerBlockView(APIView):
    """Block a player (POST) or lift the block (DELETE): a blocked player can no longer
    challenge you, message you, or be paired against you from the open challenges."""

    permission_classes = [permissions.IsAuthenticated]

    def _player(self, username: str) -> User:
        return get_object_or_404(User, **{User.USERNAME_FIELD: username})

    @extend_schema(
        operation_id="block_player",
        request=None,
        responses={
            201: OpenApiResponse(BlockSerializer, description="Blocked"),
            200: OpenApiResponse(BlockSerializer, description="Already blocked"),
            **_errors(400, 401, 404, e400="`invalid`: you cannot block yourself"),
        },
    )
    def post(self, request: SignedInRequest, username: str) -> Response:
        block, created = services.block(blocker=request.user, blocked=self._player(username))
        return Response(
            BlockSerializer(block).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )

    @extend_schema(
        operation_id="unblock_player",
        request=None,
        responses={204: None, **_errors(401, 404)},
        description="Lift the block (204 also when there was none).",
    )
    def delete(self, request: SignedInRequest, username: str) -> Response:
        services.unblock(blocker=request.user, blocked=self._player(username))
        return Response(status=status.HTTP_204_NO_CONTENT)
