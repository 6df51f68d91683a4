"""Sign-up and bearer tokens over the API."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.api.serializers import AccountSerializer, CredentialsSerializer, TokenSerializer
from accounts.throttling import AccountsThrottle, TokenThrottle
from core.api import ErrorSerializer
from core.api import error_responses as _errors


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
