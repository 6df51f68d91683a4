"""REST API for players and their ratings (routes in ratings/api_urls.py)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Profile
from core.api import Pagination as GamePagination
from core.api import error_responses as _errors
from ratings.models import RatingChange
from ratings.services import is_provisional

# --- Serializers ------------------------------------------------------------------------


class PlayerSerializer(serializers.Serializer):
    username = serializers.CharField(source="user.username")
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField()
    bot_level = serializers.IntegerField(allow_null=True)
    rating = serializers.FloatField()
    rating_deviation = serializers.FloatField()
    rating_volatility = serializers.FloatField()
    provisional = serializers.SerializerMethodField(
        help_text=_("True while the deviation is above 110: the rating is still a guess.")
    )

    def get_provisional(self, profile: Profile) -> bool:
        return is_provisional(profile)


class RatingPointSerializer(serializers.Serializer):
    game = serializers.IntegerField(source="game_id")
    rating_before = serializers.FloatField()
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    volatility = serializers.FloatField()
    created = serializers.DateTimeField()


class PlayerDetailSerializer(PlayerSerializer):
    rating_history = serializers.SerializerMethodField(
        help_text=_("One entry per rated game, oldest first (a rating period is one game).")
    )

    @extend_schema_field(RatingPointSerializer(many=True))
    def get_rating_history(self, profile: Profile) -> list[dict[str, Any]]:
        changes = RatingChange.objects.filter(user_id=profile.user_id).order_by("created", "id")
        return list(RatingPointSerializer(changes, many=True).data)


ORDERINGS = {
    "rating": ("rating", "user__username"),
    "-rating": ("-rating", "user__username"),
    "username": ("user__username",),
    "-username": ("-user__username",),
}


class PlayerFilterSerializer(serializers.Serializer):
    ordering = serializers.ChoiceField(
        choices=list(ORDERINGS), default="-rating", help_text=_("Sort order (default -rating).")
    )
    bots = serializers.BooleanField(
        required=False, allow_null=True, default=None,
        help_text=_("true: bots only; false: people only; absent: everybody."),
    )  # fmt: skip


# --- Views ---------------------------------------------------------------------------------


class PlayersView(APIView):
    pagination_class = GamePagination  # documents the paginated answer

    @extend_schema(
        operation_id="list_players",
        parameters=[PlayerFilterSerializer],
        responses={200: PlayerSerializer(many=True), **_errors(400, 404)},
    )
    def get(self, request: Request) -> Response:
        """Players with their Glicko-2 ratings (paginated); the leaderboard is ordering=-rating."""
        params = PlayerFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        profiles = Profile.objects.select_related("user").filter(user__is_active=True)
        if params.validated_data["bots"] is not None:
            profiles = profiles.filter(is_bot=params.validated_data["bots"])
        profiles = profiles.order_by(*ORDERINGS[params.validated_data["ordering"]])
        paginator = GamePagination()
        page = paginator.paginate_queryset(profiles, request, view=self)
        return paginator.get_paginated_response(PlayerSerializer(page, many=True).data)


class PlayerDetailView(APIView):
    @extend_schema(
        operation_id="get_player", responses={200: PlayerDetailSerializer, **_errors(404)}
    )
    def get(self, request: Request, username: str) -> Response:
        """A player's rating, deviation and rating history."""
        profile = get_object_or_404(Profile.objects.select_related("user"), user__username=username)
        return Response(PlayerDetailSerializer(profile).data)
