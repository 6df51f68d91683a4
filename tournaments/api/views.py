"""Tournaments API: views parse, call tournaments.services, and format.

Domain errors go to the platform's one exception handler (core.api.errors).
"""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ErrorSerializer
from core.api import Pagination as GamePagination
from core.requests import SignedInRequest
from tournaments import selectors, services
from tournaments.api import serializers as s
from tournaments.models import Pairing, Participant, Tournament

TAGS = ["tournaments"]


def _errors(**described: str) -> dict[int, OpenApiResponse]:
    return {
        int(code[1:]): OpenApiResponse(ErrorSerializer, description=text)
        for code, text in described.items()
    }


def tournaments_queryset() -> QuerySet[Tournament]:
    # Explicit order: Meta.ordering is not applied to a query with GROUP BY.
    return (
        Tournament.objects.select_related("organiser")
        .annotate(
            player_count=Count("participants", filter=Q(participants__withdrawn__isnull=True))
        )
        .order_by("-created", "-id")
    )


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(tournaments_queryset(), pk=tournament_id)


def _detail(tournament_id: int, http_status: int = status.HTTP_200_OK) -> Response:
    tournament = get_object_or_404(
        tournaments_queryset().prefetch_related(
            "participants__user__profile", "participants__bye_requests"
        ),
        pk=tournament_id,
    )
    return Response(s.TournamentDetailSerializer(tournament).data, status=http_status)


def filter_by_status(queryset: QuerySet[Tournament], name: str | None) -> QuerySet[Tournament]:
    if name == "upcoming":
        return queryset.filter(
            status__in=[Tournament.Status.REGISTRATION, Tournament.Status.STARTING]
        )
    if name:
        return queryset.filter(status=name)
    return queryset


class TournamentsView(APIView):
    pagination_class = GamePagination  # documents the paginated answer in the schema

    @extend_schema(
        operation_id="list_tournaments",
        tags=TAGS,
        parameters=[s.TournamentFilterSerializer],
        responses={
            200: s.TournamentSerializer(many=True),
            **_errors(e400="`invalid` filter", e404="`not_found`: no such page"),
        },
        auth=[],
    )
    def get(self, request: Request) -> Response:
        params = s.TournamentFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        queryset = filter_by_status(tournaments_queryset(), params.validated_data.get("status"))
        paginator = GamePagination()
        page = paginator.paginate_queryset(queryset, request, view=self)
        return paginator.get_paginated_response(s.TournamentSerializer(page, many=True).data)

    @extend_schema(
        operation_id="create_tournament",
        tags=TAGS,
        request=s.TournamentCreateSerializer,
        responses={
            201: s.TournamentDetailSerializer,
            **_errors(
                e400="`invalid`, with `fields`",
                e401="Not authenticated",
                e403="`cannot_organise`: needs staff or the organise_tournament permission",
            ),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        data = s.TournamentCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.create_tournament(organiser=request.user, **data.service_arguments())
        return _detail(tournament.pk, status.HTTP_201_CREATED)


class TournamentDetailView(APIView):
    @extend_schema(
        operation_id="get_tournament",
        tags=TAGS,
        responses={200: s.TournamentDetailSerializer, **_errors(e404="`not_found`")},
        auth=[],
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return _detail(tournament_id)


class JoinView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="join_tournament",
        tags=TAGS,
        request=s.JoinSerializer,
        responses={
            201: s.TournamentDetailSerializer,
            **_errors(
                e400="`invalid`: a club name too long",
                e401="Not authenticated",
                e403="`bots_not_allowed`",
                e404="`not_found`",
                e409="`registration_closed`, `tournament_full`, `already_joined`",
            ),
        },
    )
    def post(self, request: SignedInRequest, tournament_id: int) -> Response:
        data = s.JoinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.join(
            tournament=_tournament(tournament_id),
            user=request.user,
            club=data.validated_data.get("club", ""),
        )
        return _detail(tournament_id, status.HTTP_201_CREATED)


class WithdrawView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="withdraw_from_tournament",
        tags=TAGS,
        request=None,
        description=(
            "Before the start: leave the list. While it runs: keep past results, never be "
            "paired again; unfinished games are lost by forfeit."
        ),
        responses={
            200: s.TournamentDetailSerializer,
            **_errors(
                e401="Not authenticated",
                e403="`not_joined`",
                e404="`not_found`",
                e409="`wrong_state`: the tournament is over",
            ),
        },
    )
    def post(self, request: SignedInRequest, tournament_id: int) -> Response:
        services.withdraw(tournament=_tournament(tournament_id), user=request.user)
        return _detail(tournament_id)


class ByesView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="request_half_point_bye",
        tags=TAGS,
        request=s.ByeRequestSerializer,
        description=(
            "Swiss: sit out a round not yet paired (never the last) for half a point, up to "
            "the tournament's `half_point_byes`. Asking twice for a round changes nothing."
        ),
        responses={
            201: s.ByeRoundsSerializer,
            **_errors(
                e400="`invalid`",
                e401="Not authenticated",
                e403="`not_joined`",
                e404="`not_found`",
                e409="`bye_refused` (the message says why), `wrong_state`: the tournament is over",
            ),
        },
    )
    def post(self, request: SignedInRequest, tournament_id: int) -> Response:
        data = s.ByeRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rounds = services.request_bye(
            tournament=_tournament(tournament_id),
            user=request.user,
            round_number=data.validated_data["round"],
        )
        return Response({"rounds": rounds}, status=status.HTTP_201_CREATED)


class ByeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="cancel_half_point_bye",
        tags=TAGS,
        request=None,
        responses={
            200: s.ByeRoundsSerializer,
            **_errors(
                e401="Not authenticated",
                e403="`not_joined`",
                e404="`not_found`",
                e409="`bye_refused`: the round is paired, `wrong_state`: the tournament is over",
            ),
        },
    )
    def delete(self, request: SignedInRequest, tournament_id: int, number: int) -> Response:
        rounds = services.cancel_bye(
            tournament=_tournament(tournament_id), user=request.user, round_number=number
        )
        return Response({"rounds": rounds})


class AbsentView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="mark_tournament_player_absent",
        tags=TAGS,
        request=s.AbsentSerializer,
        description="Organiser, Swiss: leave a player out of the next rounds, or bring them back.",
        responses={
            200: s.TournamentDetailSerializer,
            **_errors(
                e400="`invalid`",
                e401="Not authenticated",
                e403="`not_organiser`",
                e404="`not_found`: no such tournament or player in it",
                e409="`wrong_state`: a round robin, or the tournament is over",
            ),
        },
    )
    def post(self, request: SignedInRequest, tournament_id: int) -> Response:
        data = s.AbsentSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = _tournament(tournament_id)
        participant = get_object_or_404(
            Participant, tournament=tournament, user__username=data.validated_data["username"]
        )
        services.set_absent(
            tournament=tournament,
            participant=participant,
            absent=data.validated_data["absent"],
            by=request.user,
        )
        return _detail(tournament_id)


class AdjudicateView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="adjudicate_tournament_board",
        tags=TAGS,
        request=s.AdjudicationSerializer,
        description=(
            "Organiser: end the unfinished game of a board with a result (termination "
            "`adjudication`) or a forfeit (`abandoned`); the board is scored at once."
        ),
        responses={
            200: s.RoundSerializer,
            **_errors(
                e400="`invalid`",
                e401="Not authenticated",
                e403="`not_organiser`",
                e404="`not_found`: no such tournament, round or board",
                e409="`wrong_state`: the board is already decided",
            ),
        },
    )
    def post(
        self, request: SignedInRequest, tournament_id: int, number: int, board: int
    ) -> Response:
        data = s.AdjudicationSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = _tournament(tournament_id)
        pairing = get_object_or_404(
            Pairing.objects.select_related("round"),
            round__tournament=tournament,
            round__number=number,
            board=board,
        )
        services.adjudicate_board(
            pairing=pairing, decision=data.validated_data["result"], by=request.user
        )
        return Response(s.round_payload(number, selectors.round_pairings(tournament, number)))


class StartView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="start_tournament",
        tags=TAGS,
        request=None,
        responses={
            202: OpenApiResponse(
                s.TournamentDetailSerializer,
                description=(
                    "Registration closed, status `starting`: a job ranks the players and "
                    "pairs round 1 (status `running`, `current_round` 1, the round under "
                    "`rounds/1`), or puts the tournament back in `registration` with the "
                    "reason in `start_error`"
                ),
            ),
            **_errors(
                e401="Not authenticated",
                e403="`not_organiser`",
                e404="`not_found`",
                e409="`wrong_state` (already starting or started), `not_enough_players`",
            ),
        },
    )
    def post(self, request: SignedInRequest, tournament_id: int) -> Response:
        services.request_start(tournament=_tournament(tournament_id), by=request.user)
        return _detail(tournament_id, http_status=status.HTTP_202_ACCEPTED)


class StandingsView(APIView):
    @extend_schema(
        operation_id="tournament_standings",
        tags=TAGS,
        responses={200: s.StandingsSerializer, **_errors(e404="`not_found`")},
        auth=[],
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        table = selectors.standings(_tournament(tournament_id))
        return Response(s.standings_payload(table))


class RoundView(APIView):
    @extend_schema(
        operation_id="tournament_round",
        tags=TAGS,
        responses={200: s.RoundSerializer, **_errors(e404="`not_found`: no such round yet")},
        auth=[],
    )
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        rows = selectors.round_pairings(_tournament(tournament_id), number)
        if not rows:
            return Response(
                {"code": "not_found", "error": "This round has not been paired."},
                status=status.HTTP_404_NOT_FOUND,
            )
        return Response(s.round_payload(number, rows))


def text_download(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class TrfView(APIView):
    @extend_schema(
        operation_id="tournament_trf",
        tags=TAGS,
        description="TRF-16 of the completed rounds (XXR = planned rounds), for pairing programs.",
        responses={
            (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="TRF-16"),
            **_errors(e404="`not_found`"),
        },
        auth=[],
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        tournament = _tournament(tournament_id)
        return text_download(selectors.trf(tournament), f"tournament-{tournament.pk}.trf")
