"""Admin for organisers: tournaments with their players, rounds and boards.

State changes that have rules (start, withdraw, results) go through services:
the admin actions call them; seeds, rounds and outcomes are read-only here.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from core.errors import DomainError
from core.requests import SignedInHttpRequest
from tournaments import services
from tournaments.models import (
    ByeRequest,
    Division,
    ForbiddenPair,
    League,
    LeagueMember,
    Pairing,
    Participant,
    Round,
    Season,
    SeatInvitation,
    Tournament,
    TrfImport,
)


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0
    fields = ["user", "seed", "rating", "joined", "withdrawn", "absent"]
    readonly_fields = ["seed", "rating", "joined", "withdrawn"]
    raw_id_fields = ["user"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "name",
        "format",
        "status",
        "current_round",
        "rounds",
        "organiser",
        "starts_at",
    ]
    list_filter = ["status", "format", "rated", "opening"]
    search_fields = ["name", "organiser__username"]
    list_select_related = ["organiser"]
    readonly_fields = [
        "status", "current_round", "created", "start_requested", "start_error", "started",
        "finished",
    ]  # fmt: skip
    raw_id_fields = ["organiser"]
    inlines = [ParticipantInline]
    actions = ["start_now"]

    @admin.action(description=_("Start the selected tournaments now"))
    def start_now(self, request: SignedInHttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            try:
                services.request_start(tournament=tournament, by=request.user)
            except DomainError as exc:
                self.message_user(request, f"{tournament}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, _("%(t)s is starting.") % {"t": tournament})


class ByeRequestInline(admin.TabularInline):
    """The half-point byes a player asked for: players ask (the rules are checked
    there); an organiser may only take one back."""

    model = ByeRequest
    extra = 0
    fields = readonly_fields = ("round_number", "created")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):
    list_display = ["user", "tournament", "seed", "rating", "withdrawn", "absent"]
    list_filter = ["absent"]
    search_fields = ["user__username", "tournament__name"]
    list_select_related = ["user", "tournament"]
    readonly_fields = ["seed", "rating", "joined", "withdrawn", "withdrawn_after_round"]
    raw_id_fields = ["user", "tournament"]
    inlines = [ByeRequestInline]
    actions = ["withdraw_players"]

    @admin.action(description=_("Withdraw the selected players (unfinished games forfeited)"))
    def withdraw_players(self, request: HttpRequest, queryset: QuerySet[Participant]) -> None:
        for participant in queryset.select_related("tournament", "user"):
            try:
                services.withdraw(tournament=participant.tournament, user=participant.user)
            except DomainError as exc:
                self.message_user(request, f"{participant}: {exc.message}", messages.ERROR)


class PairingInline(admin.TabularInline):
    model = Pairing
    extra = 0
    can_delete = False
    fields = readonly_fields = ("board", "white", "black", "white_outcome", "black_outcome", "game")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "created"]
    list_select_related = ["tournament"]
    search_fields = ["tournament__name"]
    readonly_fields = ["tournament", "number", "created"]
    inlines = [PairingInline]


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ["round", "board", "white", "black", "white_outcome", "black_outcome", "game"]
    list_select_related = ["round__tournament", "white__user", "black__user", "game"]
    search_fields = ["white__user__username", "black__user__username", "round__tournament__name"]
    readonly_fields = ["round", "board", "white", "black", "game", "white_outcome", "black_outcome"]


# --- Arbiter control: read here, changed through tournaments.arbiter / trf_import ------------


@admin.register(TrfImport)
class TrfImportAdmin(admin.ModelAdmin):
    list_display = ["id", "organiser", "status", "error_line", "tournament", "created"]
    list_filter = ["status"]
    readonly_fields = [
        "organiser", "text", "name", "match_users", "arbiter_publishes", "status",
        "error_line", "error", "tournament", "created", "finished",
    ]  # fmt: skip

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # uploads go through the import page or the API (and its job)


@admin.register(SeatInvitation)
class SeatInvitationAdmin(admin.ModelAdmin):
    list_display = ["participant", "user", "status", "created", "answered"]
    list_filter = ["status"]
    list_select_related = ["participant__tournament", "participant__user", "user"]
    search_fields = ["user__username", "participant__tournament__name"]
    # Sent by a TRF import, answered by the invited account only (trf_import.answer_invitation).
    readonly_fields = ["participant", "user", "status", "created", "answered"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(admin.ModelAdmin):
    list_display = ["tournament", "first", "second", "created"]
    raw_id_fields = ["tournament", "first", "second"]


# --- Championship leagues (tournaments.leagues) -------------------------------------------


class LeagueMemberInline(admin.TabularInline):
    model = LeagueMember
    extra = 0
    fields = ["user", "joined", "left"]
    readonly_fields = ["joined"]
    raw_id_fields = ["user"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "organiser", "division_size", "promote", "created"]
    search_fields = ["name"]
    raw_id_fields = ["organiser"]
    inlines = [LeagueMemberInline]


class DivisionInline(admin.TabularInline):
    model = Division
    extra = 0
    fields = readonly_fields = ("level", "tournament")  # made by the season's start: leagues
    can_delete = False


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["league", "number", "status", "started", "finished"]
    list_filter = ["status"]
    # Seasons start and end through tournaments.leagues (the rollover job).
    readonly_fields = ["league", "number", "status", "started", "finished"]
    inlines = [DivisionInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
