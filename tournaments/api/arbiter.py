"""Arbiter control API: draft rounds, forbidden pairs, arbiter options, TRF imports and
the invitations to imported places they send.

Parsing and formatting only: the rules are tournaments.arbiter and tournaments.trf_import.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.requests import SignedInRequest
from tournaments import arbiter, errors, services, trf_import
from tournaments.api.serializers import TournamentDetailSerializer
from tournaments.api.views import TAGS, _detail, _errors, _tournament
from tournaments.models import DraftRound, Participant, SeatInvitation, Tournament, TrfImport

# --- Shapes -----------------------------------------------------------------------------------


class DraftPlayerSerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    username = serializers.CharField()


class DraftBoardSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    white = DraftPlayerSerializer()
    black = DraftPlayerSerializer(allow_null=True, help_text=_("null: the pairing bye."))


class DraftWarningSerializer(serializers.Serializer):
    board = serializers.IntegerField(allow_null=True)
    players = serializers.ListField(child=serializers.CharField(), help_text=_("Usernames."))
    seeds = serializers.ListField(child=serializers.IntegerField())
    rule = serializers.CharField(help_text=_("C1, forbidden, C2, bye, C3 or colour."))
    message = serializers.CharField()
    detail = serializers.CharField(help_text=_("The checker's own words, as the CLI prints."))


class DraftSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    publishing = serializers.BooleanField(help_text=_("Being published by a job."))
    boards = DraftBoardSerializer(many=True)
    half_point_byes = DraftPlayerSerializer(many=True)
    warnings = DraftWarningSerializer(many=True)


class DraftEditSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=arbiter.EDITS)
    board = serializers.IntegerField(required=False, help_text=_("swap_colours"))
    first = serializers.IntegerField(required=False, help_text=_("swap: a starting rank"))
    second = serializers.IntegerField(required=False, help_text=_("swap: a starting rank"))
    player = serializers.IntegerField(required=False, help_text=_("bye: a starting rank"))
    white = serializers.IntegerField(required=False, help_text=_("pair: a starting rank"))
    black = serializers.IntegerField(required=False, help_text=_("pair: a starting rank"))


class ArbiterOptionsSerializer(serializers.Serializer):
    arbiter_publishes = serializers.BooleanField(required=False)
    avoid_same_club = serializers.BooleanField(required=False)


class ForbiddenPairSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    first = serializers.CharField(help_text=_("A player's username."))
    second = serializers.CharField(help_text=_("A player's username."))


class TrfImportRequestSerializer(serializers.Serializer):
    file = serializers.FileField(help_text=_("A TRF-16 file (multipart upload)."))
    name = serializers.CharField(required=False, allow_blank=True, max_length=120)
    match_users = serializers.BooleanField(
        default=False,
        help_text=_(
            "Invite the accounts whose username (or display name) is a player's name: "
            "each takes the imported place only after accepting."
        ),
    )
    arbiter_publishes = serializers.BooleanField(default=False)


class TrfImportSerializer(serializers.ModelSerializer):
    tournament = serializers.IntegerField(source="tournament_id", allow_null=True)

    class Meta:
        model = TrfImport
        fields = [
            "id", "status", "name", "match_users", "arbiter_publishes", "error_line", "error",
            "tournament", "created", "finished",
        ]  # fmt: skip
        read_only_fields = fields


class SeatInvitationSerializer(serializers.ModelSerializer):
    tournament = serializers.IntegerField(source="participant.tournament_id")
    tournament_name = serializers.CharField(source="participant.tournament.shown_name")
    organiser = serializers.CharField(source="participant.tournament.organiser.username")
    seed = serializers.IntegerField(source="participant.seed")
    place_taken = serializers.SerializerMethodField(
        help_text=_(
            "True once the account plays in the place (accepted while a game under the "
            "imported name was on: from the next round)."
        )
    )

    class Meta:
        model = SeatInvitation
        fields = [
            "id", "tournament", "tournament_name", "organiser", "seed", "status",
            "place_taken", "created", "answered",
        ]  # fmt: skip
        read_only_fields = fields

    def get_place_taken(self, invitation: SeatInvitation) -> bool:
        return invitation.participant.user_id == invitation.user_id


def draft_payload(tournament: Tournament, draft: DraftRound) -> dict[str, Any]:
    names = dict(tournament.participants.values_list("seed", "user__username"))

    def player(seed: int | None) -> dict[str, Any] | None:
        return {"seed": seed, "username": names.get(seed, "")} if seed else None

    return {
        "number": draft.number,
        "publishing": draft.publishing,
        "boards": [
            {"board": number, "white": player(white), "black": player(black)}
            for number, (white, black) in enumerate(draft.boards, start=1)
        ],
        "half_point_byes": [player(seed) for seed in draft.half_point_byes],
        "warnings": [
            {
                "board": w.board,
                "players": list(w.usernames),
                "seeds": list(w.seeds),
                "rule": w.rule,
                "message": w.message,
                "detail": w.detail,
            }
            for w in arbiter.warnings(tournament, draft)
        ],
    }


def _managed(request: Request, tournament_id: int) -> Tournament:
    tournament = _tournament(tournament_id)
    if not services.may_manage(request.user, tournament):
        raise errors.NotOrganiser()
    return tournament


# --- Views ------------------------------------------------------------------------------------


class DraftView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="tournament_draft_round",
        tags=TAGS,
        description=(
            "Organiser, Swiss with `arbiter_publishes`: the round waiting to be published, "
            "with the checker's warnings (absolute criteria)."
        ),
        responses={
            200: DraftSerializer,
            **_errors(
                e401="Not authenticated",
                e403="`not_organiser`",
                e404="`not_found`",
                e409="`no_draft`: no round is waiting",
            ),
        },
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _managed(request, tournament_id)
        draft = arbiter.draft_of(tournament)
        if draft is None:
            raise errors.NoDraftRound()
        return Response(draft_payload(tournament, draft))

    @extend_schema(
        operation_id="edit_tournament_draft_round",
        tags=TAGS,
        request=DraftEditSerializer,
        description=(
            "Organiser: `swap_colours` (board), `swap` (first, second), `bye` (player) or "
            "`pair` (white, black) — players are starting ranks. Answers the edited draft "
            "and its warnings (they never block)."
        ),
        responses={
            200: DraftSerializer,
            **_errors(
                e400="`invalid`, `invalid_edit` (with `fields`)",
                e401="Not authenticated",
                e403="`not_organiser`",
                e404="`not_found`",
                e409="`no_draft`",
            ),
        },
    )
    def post(self, request: SignedInRequest, tournament_id: int) -> Response:
        data = DraftEditSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = _tournament(tournament_id)
        values = dict(data.validated_data)
        draft = arbiter.edit_draft(
            tournament=tournament, by=request.user, action=values.pop("action"), **values
        )
        return Response(draft_payload(tournament, draft))


class PublishView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="publish_tournament_draft_round",
        tags=TAGS,
        request=None,
        responses={
            202: OpenApiResponse(
                DraftSerializer,
                description="A job creates the round's games (`current_round` moves on).",
            ),
            **_errors(
                e401="Not authenticated",
                e403="`not_organiser`",
                e404="`not_found`",
                e409="`no_draft`",
            ),
        },
    )
    def post(self, request: SignedInRequest, tournament_id: int) -> Response:
        tournament = _tournament(tournament_id)
        draft = arbiter.publish(tournament=tournament, by=request.user)
        return Response(draft_payload(tournament, draft), status=status.HTTP_202_ACCEPTED)


class ArbiterOptionsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="set_tournament_arbiter_options",
        tags=TAGS,
        request=ArbiterOptionsSerializer,
        responses={
            200: TournamentDetailSerializer,
            **_errors(
                e400="`invalid`",
                e401="Not authenticated",
                e403="`not_organiser`",
                e404="`not_found`",
                e409="`wrong_state`: not a Swiss, or over",
            ),
        },
    )
    def patch(self, request: SignedInRequest, tournament_id: int) -> Response:
        data = ArbiterOptionsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        arbiter.set_arbiter_options(
            tournament=_tournament(tournament_id), by=request.user, **data.validated_data
        )
        return _detail(tournament_id)


def _pairs(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {"id": pair.id, "first": pair.first.user.username, "second": pair.second.user.username}
        for pair in arbiter.forbidden_pairs(tournament)
    ]


class ForbiddenPairsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="list_tournament_forbidden_pairs",
        tags=TAGS,
        responses={
            200: ForbiddenPairSerializer(many=True),
            **_errors(e401="Not authenticated", e403="`not_organiser`", e404="`not_found`"),
        },
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(_pairs(_managed(request, tournament_id)))

    @extend_schema(
        operation_id="add_tournament_forbidden_pair",
        tags=TAGS,
        request=ForbiddenPairSerializer,
        description="Organiser, Swiss: these two players are never paired (round robins: no).",
        responses={
            201: ForbiddenPairSerializer(many=True),
            **_errors(
                e400="`invalid`",
                e401="Not authenticated",
                e403="`not_organiser`",
                e404="`not_found`: no such tournament or player in it",
                e409="`wrong_state`: a round robin, or over",
            ),
        },
    )
    def post(self, request: SignedInRequest, tournament_id: int) -> Response:
        data = ForbiddenPairSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = _managed(request, tournament_id)
        first, second = (
            get_object_or_404(
                Participant, tournament=tournament, user__username=data.validated_data[key]
            )
            for key in ("first", "second")
        )
        arbiter.add_forbidden_pair(
            tournament=tournament, by=request.user, first=first, second=second
        )
        return Response(_pairs(tournament), status=status.HTTP_201_CREATED)


class ForbiddenPairView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="remove_tournament_forbidden_pair",
        tags=TAGS,
        request=None,
        responses={
            200: ForbiddenPairSerializer(many=True),
            **_errors(
                e400="`invalid`: no such pair",
                e401="Not authenticated",
                e403="`not_organiser`",
                e404="`not_found`",
                e409="`wrong_state`",
            ),
        },
    )
    def delete(self, request: SignedInRequest, tournament_id: int, pair_id: int) -> Response:
        tournament = _tournament(tournament_id)
        arbiter.remove_forbidden_pair(tournament=tournament, by=request.user, pair_id=pair_id)
        return Response(_pairs(tournament))


class TrfImportsView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [MultiPartParser, FormParser, JSONParser]

    @extend_schema(
        operation_id="import_tournament_trf",
        tags=TAGS,
        request={"multipart/form-data": TrfImportRequestSerializer},
        description=(
            "Organiser: a job creates a Swiss from a TRF-16 file (players, rounds, results) "
            "and pairs its next round; poll `tournament-imports/{id}` (errors name the line)."
        ),
        responses={
            202: TrfImportSerializer,
            **_errors(
                e400="`invalid`, `invalid_trf`: no file, empty, too large, not text",
                e401="Not authenticated",
                e403="`cannot_organise`",
            ),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        if not services.can_organise(request.user):
            raise errors.CannotOrganise()
        data = TrfImportRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        upload = values["file"]
        if upload.size > trf_import.MAX_FILE_BYTES:
            raise errors.InvalidImport(
                _("A TRF file may have at most %(n)d bytes.") % {"n": trf_import.MAX_FILE_BYTES}
            )
        job = trf_import.queue_import(
            organiser=request.user,
            data=upload.read(),
            name=values.get("name", ""),
            match_users=values["match_users"],
            arbiter_publishes=values["arbiter_publishes"],
        )
        return Response(TrfImportSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class TrfImportView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="tournament_trf_import",
        tags=TAGS,
        responses={
            200: TrfImportSerializer,
            **_errors(e401="Not authenticated", e404="`not_found`: not yours, or none"),
        },
    )
    def get(self, request: Request, import_id: int) -> Response:
        job = get_object_or_404(TrfImport, pk=import_id)
        if not (request.user.is_staff or job.organiser_id == request.user.pk):
            return Response(
                {"code": "not_found", "error": str(_("No such import."))},
                status=status.HTTP_404_NOT_FOUND,
            )
        return Response(TrfImportSerializer(job).data)


# --- Invitations to imported places ------------------------------------------------------------


class SeatInvitationsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="my_tournament_invitations",
        tags=TAGS,
        description=(
            "The signed-in account's invitations to places in imported tournaments "
            "(a TRF import with `match_users` named a player as the account is named)."
        ),
        responses={200: SeatInvitationSerializer(many=True), **_errors(e401="Not authenticated")},
    )
    def get(self, request: SignedInRequest) -> Response:
        invitations = trf_import.invitations_of(request.user)
        return Response(SeatInvitationSerializer(invitations, many=True).data)


_ANSWER_ERRORS = _errors(
    e401="Not authenticated",
    e404="`not_found`: no such invitation of this account",
    e409="`wrong_state` (answered otherwise already, or the tournament was cancelled), "
    "`already_joined`",
)


def _answer(request: SignedInRequest, invitation_id: int, *, accept: bool) -> Response:
    invitation = trf_import.answer_invitation(
        invitation_id=invitation_id, user=request.user, accept=accept
    )
    shown = SeatInvitation.objects.select_related("participant__tournament__organiser").get(
        pk=invitation.pk
    )
    return Response(SeatInvitationSerializer(shown).data)


class SeatInvitationAcceptView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="accept_tournament_invitation",
        tags=TAGS,
        request=None,
        description=(
            "Take the imported place: its results become the account's and it is paired "
            "from then on (at once, or from the next round if a game under the imported "
            "name is on: `place_taken`)."
        ),
        responses={200: SeatInvitationSerializer, **_ANSWER_ERRORS},
    )
    def post(self, request: SignedInRequest, invitation_id: int) -> Response:
        return _answer(request, invitation_id, accept=True)


class SeatInvitationDeclineView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="decline_tournament_invitation",
        tags=TAGS,
        request=None,
        description="Not me: the place stays the imported player's.",
        responses={200: SeatInvitationSerializer, **_ANSWER_ERRORS},
    )
    def post(self, request: SignedInRequest, invitation_id: int) -> Response:
        return _answer(request, invitation_id, accept=False)
