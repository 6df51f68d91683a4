"""API of the knockout bracket and of championship leagues (tournaments.knockout, .leagues).

Views parse, call the services, and format; domain errors go to the one handler.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.requests import SignedInRequest
from games.api.serializers import ClockRequestSerializer, time_control_request
from games.models import Game
from tournaments import knockout, leagues
from tournaments.api.serializers import points_text, standings_payload
from tournaments.api.views import _errors, _tournament
from tournaments.models import League, Season, Tournament

TAGS = ["leagues"]


# --- Knockout bracket -------------------------------------------------------------------


class BracketPlayerSerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    username = serializers.CharField()


class BracketGameSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text=_("The tournament round it was paired in."))
    white = serializers.IntegerField(help_text=_("Seed."))
    black = serializers.IntegerField(help_text=_("Seed."))
    result = serializers.CharField(help_text=_("1-0, 1/2-1/2, 0-1, +-, -+, -- or * (on)."))
    game = serializers.IntegerField(allow_null=True)


class MatchSerializer(serializers.Serializer):
    slot = serializers.IntegerField()
    high = BracketPlayerSerializer(allow_null=True, help_text=_("The higher seed."))
    low = BracketPlayerSerializer(allow_null=True, help_text=_("Null: a bye, or not known yet."))
    winner = serializers.IntegerField(allow_null=True, help_text=_("Seed."))
    decided_by = serializers.CharField(help_text=_("bye, game, seed, black; empty: undecided."))
    games = BracketGameSerializer(many=True)


class BracketRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    matches = MatchSerializer(many=True)


class BracketSerializer(serializers.Serializer):
    tie_rule = serializers.CharField()
    champion = BracketPlayerSerializer(allow_null=True)
    rounds = BracketRoundSerializer(many=True)


class BracketView(APIView):
    @extend_schema(
        operation_id="get_bracket",
        tags=["tournaments"],
        responses={
            200: BracketSerializer,
            **_errors(e404="`not_found`: no such tournament, or not a knockout cup"),
        },
        auth=[],
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(tournament_id)
        if tournament.format != Tournament.Format.KNOCKOUT:
            from django.http import Http404

            raise Http404
        return Response(knockout.bracket_payload(tournament))


# --- Leagues --------------------------------------------------------------------------------


def leagues_queryset() -> Any:
    return (
        League.objects.select_related("organiser")
        .annotate(member_count=Count("members", filter=Q(members__left__isnull=True)))
        .order_by("-created", "-id")
    )


class LeagueSerializer(serializers.ModelSerializer):
    organiser = serializers.CharField(source="organiser.username", read_only=True)
    members = serializers.IntegerField(source="member_count", read_only=True)
    seasons = serializers.SerializerMethodField()

    class Meta:
        model = League
        fields = [
            "id", "name", "organiser", "division_size", "promote", "opening",
            "days_per_turn", "clock_kind", "weekend_pause", "rated", "allow_bots",
            "members", "seasons", "created",
        ]  # fmt: skip
        read_only_fields = fields

    def get_seasons(self, league: League) -> list[dict[str, Any]]:
        return [
            {"number": season.number, "status": season.status}
            for season in league.seasons.order_by("number")
        ]


class LeagueCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    division_size = serializers.IntegerField(default=6, help_text=_("Players per division."))
    promote = serializers.IntegerField(
        default=1, help_text=_("How many go up (and down) at each season's end.")
    )
    opening = serializers.ChoiceField(
        choices=Game.Opening.choices[:2], default=Game.Opening.STANDARD
    )
    days_per_turn = serializers.IntegerField(default=3)
    clock = ClockRequestSerializer(required=False)
    rated = serializers.BooleanField(default=True)
    allow_bots = serializers.BooleanField(default=False)

    def service_arguments(self) -> dict[str, Any]:
        data = dict(self.validated_data)
        data["time_control"] = time_control_request(data)
        data.pop("clock", None)
        data.pop("days_per_turn", None)
        return data


class DivisionSerializer(serializers.Serializer):
    level = serializers.IntegerField(help_text=_("1 is the top division."))
    tournament = serializers.IntegerField(help_text=_("The division's round robin."))
    status = serializers.CharField()
    up = serializers.IntegerField(help_text=_("How many of the top go up."))
    down = serializers.IntegerField(help_text=_("How many of the bottom go down."))
    standings = serializers.DictField()


class SeasonSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()
    started = serializers.DateTimeField()
    finished = serializers.DateTimeField(allow_null=True)
    divisions = DivisionSerializer(many=True)


class HistoryRowSerializer(serializers.Serializer):
    season = serializers.IntegerField()
    division = serializers.IntegerField()
    rank = serializers.IntegerField(allow_null=True)
    players = serializers.IntegerField()
    points = serializers.CharField()
    tournament = serializers.IntegerField()
    finished = serializers.BooleanField()
    move = serializers.CharField(help_text=_("up, down, stay, left; empty: the season is on."))


def _league(league_id: int) -> League:
    return get_object_or_404(leagues_queryset(), pk=league_id)


def _detail(league_id: int, http_status: int = status.HTTP_200_OK) -> Response:
    return Response(LeagueSerializer(_league(league_id)).data, status=http_status)


def season_payload(season: Season) -> dict[str, Any]:
    return {
        "number": season.number,
        "status": season.status,
        "started": season.started,
        "finished": season.finished,
        "divisions": [
            {
                "level": table.division.level,
                "tournament": table.division.tournament_id,
                "status": table.division.tournament.status,
                "up": table.up,
                "down": table.down,
                "standings": standings_payload(table.standings),
            }
            for table in leagues.season_tables(season)
        ],
    }


class LeaguesView(APIView):
    @extend_schema(
        operation_id="list_leagues", tags=TAGS, responses={200: LeagueSerializer(many=True)},
        auth=[],
    )  # fmt: skip
    def get(self, request: Request) -> Response:
        return Response(LeagueSerializer(leagues_queryset()[:100], many=True).data)

    @extend_schema(
        operation_id="create_league",
        tags=TAGS,
        request=LeagueCreateSerializer,
        responses={
            201: LeagueSerializer,
            **_errors(
                e400="`invalid`, with `fields`",
                e401="Not authenticated",
                e403="`cannot_organise`: needs staff or the organise_tournament permission",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            from rest_framework.exceptions import NotAuthenticated

            raise NotAuthenticated
        data = LeagueCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        league = leagues.create_league(organiser=request.user, **data.service_arguments())
        return _detail(league.pk, status.HTTP_201_CREATED)


class LeagueDetailView(APIView):
    @extend_schema(
        operation_id="get_league", tags=TAGS,
        responses={200: LeagueSerializer, **_errors(e404="`not_found`")}, auth=[],
    )  # fmt: skip
    def get(self, request: Request, league_id: int) -> Response:
        return _detail(league_id)


class LeagueJoinView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="join_league",
        tags=TAGS,
        request=None,
        description="Join (or rejoin): from the next season on, at the bottom.",
        responses={
            201: LeagueSerializer,
            **_errors(
                e401="Not authenticated",
                e403="`bots_not_allowed`",
                e404="`not_found`",
                e409="`already_joined`",
            ),
        },
    )
    def post(self, request: SignedInRequest, league_id: int) -> Response:
        leagues.join_league(league=_league(league_id), user=request.user)
        return _detail(league_id, status.HTTP_201_CREATED)


class LeagueLeaveView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="leave_league",
        tags=TAGS,
        request=None,
        description="Not in the next seasons; the season being played goes on.",
        responses={
            200: LeagueSerializer,
            **_errors(e401="Not authenticated", e403="`not_joined`", e404="`not_found`"),
        },
    )
    def post(self, request: SignedInRequest, league_id: int) -> Response:
        leagues.leave_league(league=_league(league_id), user=request.user)
        return _detail(league_id)


class LeagueStartView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="start_league",
        tags=TAGS,
        request=None,
        description=(
            "Organiser: season 1, members by rating in divisions; a job pairs each "
            "division's games (202). Later seasons start by themselves."
        ),
        responses={
            202: LeagueSerializer,
            **_errors(
                e401="Not authenticated",
                e403="`not_organiser`",
                e404="`not_found`",
                e409="`wrong_state`: already started; `not_enough_players`",
            ),
        },
    )
    def post(self, request: SignedInRequest, league_id: int) -> Response:
        leagues.start_league(league=_league(league_id), by=request.user)
        return _detail(league_id, status.HTTP_202_ACCEPTED)


class SeasonView(APIView):
    @extend_schema(
        operation_id="get_season", tags=TAGS,
        responses={200: SeasonSerializer, **_errors(e404="`not_found`")}, auth=[],
    )  # fmt: skip
    def get(self, request: Request, league_id: int, number: int) -> Response:
        season = get_object_or_404(
            Season.objects.select_related("league"), league_id=league_id, number=number
        )
        return Response(season_payload(season))


class LeagueHistoryView(APIView):
    @extend_schema(
        operation_id="get_league_history", tags=TAGS,
        responses={200: HistoryRowSerializer(many=True), **_errors(e404="`not_found`")},
        auth=[],
    )  # fmt: skip
    def get(self, request: Request, league_id: int, username: str) -> Response:
        league = _league(league_id)
        user = get_object_or_404(get_user_model(), username=username)
        return Response(
            [
                {
                    "season": row.season, "division": row.level, "rank": row.rank,
                    "players": row.players, "points": points_text(row.points),
                    "tournament": row.tournament_id, "finished": row.finished, "move": row.move,
                }
                for row in leagues.history(league, user)
            ]
        )  # fmt: skip
