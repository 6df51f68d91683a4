"""API: vacation (PUT/DELETE /api/v1/me/vacation) and clock/email preferences."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Profile, TurnEmail
from clocks import services
from clocks.arithmetic import time_zone_names
from core.api import ErrorSerializer
from core.requests import SignedInRequest


class StrictBooleanField(serializers.BooleanField):
    """true or false only: DRF's BooleanField also takes 0, 1, "yes"…, which the
    schema (type boolean) does not allow."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class VacationRequestSerializer(serializers.Serializer):
    days = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=services.MAX_VACATION_DAYS,
        help_text="Planned length in days (default: all the days left this year).",
    )


class VacationSerializer(serializers.Serializer):
    on_vacation = serializers.BooleanField()
    started = serializers.DateTimeField(allow_null=True)
    until = serializers.DateTimeField(
        allow_null=True, help_text="The vacation ends by itself then (the clocks restart)."
    )
    days_left = serializers.IntegerField(
        help_text="Vacation days left this year (a running vacation is charged when it ends)."
    )
    days_per_year = serializers.IntegerField()


class PreferencesSerializer(serializers.Serializer):
    time_zone = serializers.ChoiceField(
        choices=sorted(time_zone_names()),
        required=False,
        help_text="IANA name; weekends are counted in it.",
    )
    auto_vacation = StrictBooleanField(
        required=False, help_text="Spend a vacation day instead of losing on time."
    )
    email_notifications = StrictBooleanField(required=False)
    turn_email = serializers.ChoiceField(
        choices=TurnEmail.choices,
        required=False,
        help_text="each: one email per game at most every few hours; digest: one a day.",
    )


def _vacation_payload(vacation: services.Vacation) -> dict[str, Any]:
    return VacationSerializer(vacation.__dict__).data


def _preferences_payload(profile: Profile) -> dict[str, Any]:
    return {
        "time_zone": profile.time_zone,
        "auto_vacation": profile.auto_vacation,
        "email_notifications": profile.email_notifications,
        "turn_email": profile.turn_email,
    }


_errors = {
    400: OpenApiResponse(ErrorSerializer, description="`invalid` (with `fields`)"),
    401: OpenApiResponse(ErrorSerializer, description="`not_authenticated`"),
}


class VacationView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="get_vacation", responses={200: VacationSerializer, **_errors})
    def get(self, request: SignedInRequest) -> Response:
        profile = Profile.objects.get(user=request.user)
        return Response(_vacation_payload(services.vacation_of(profile)))

    @extend_schema(
        operation_id="take_vacation",
        request=VacationRequestSerializer,
        responses={
            200: VacationSerializer,
            **_errors,
            409: OpenApiResponse(ErrorSerializer, description="`no_vacation_days`"),
        },
        description="Go on vacation now: all your clocks stop (except in games that forbid "
        "vacation). Already on vacation: `days` moves the planned end.",
    )
    def put(self, request: SignedInRequest) -> Response:
        data = VacationRequestSerializer(data=request.data)  # a JSON null body is a 400
        data.is_valid(raise_exception=True)
        vacation = services.take_vacation(user=request.user, days=data.validated_data.get("days"))
        return Response(_vacation_payload(vacation))

    @extend_schema(
        operation_id="end_vacation",
        request=None,
        responses={200: VacationSerializer, **_errors},
        description="Come back: each started day is charged and your clocks restart. "
        "Not on vacation: nothing changes.",
    )
    def delete(self, request: SignedInRequest) -> Response:
        return Response(_vacation_payload(services.end_vacation(user=request.user)))


class PreferencesView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="get_preferences", responses={200: PreferencesSerializer, **_errors}
    )
    def get(self, request: SignedInRequest) -> Response:
        return Response(_preferences_payload(Profile.objects.get(user=request.user)))

    @extend_schema(
        operation_id="update_preferences",
        request=PreferencesSerializer,
        responses={200: PreferencesSerializer, **_errors},
    )
    def patch(self, request: SignedInRequest) -> Response:
        data = PreferencesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        profile = services.update_preferences(user=request.user, **data.validated_data)
        return Response(_preferences_payload(profile))
