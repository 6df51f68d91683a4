"""Pages of knockout cups (the bracket) and championship leagues (league, season, history).

Views parse and format; every change goes through tournaments.leagues (or the
tournament services) and a refusal becomes a message in words.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.requests import SignedInHttpRequest
from tournaments import errors, knockout, leagues, services
from tournaments.api.formats import leagues_queryset
from tournaments.api.views import tournaments_queryset
from tournaments.forms import LeagueForm
from tournaments.models import LeagueMember, Season, Tournament


def bracket(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(
        tournaments_queryset(), pk=tournament_id, format=Tournament.Format.KNOCKOUT
    )
    return render(
        request,
        "tournaments/bracket.html",
        {
            "tournament": tournament,
            "bracket": knockout.bracket_payload(tournament),
            "rounds": range(1, tournament.current_round + 1),
        },
    )


def league_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/leagues.html",
        {"leagues": leagues_queryset()[:100], "can_organise": services.can_organise(request.user)},
    )


@login_required
def league_create(request: SignedInHttpRequest) -> HttpResponse:
    if not services.can_organise(request.user):
        raise PermissionDenied
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = leagues.create_league(organiser=request.user, **form.service_arguments())
        except errors.InvalidTournament as exc:
            for field, problems in exc.details.get("fields", {}).items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
        else:
            messages.success(request, _("League created."))
            return redirect("tournaments:league", league_id=league.pk)
    return render(request, "tournaments/league_create.html", {"form": form})


def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    league = get_object_or_404(leagues_queryset(), pk=league_id)
    members = list(
        LeagueMember.objects.filter(league=league, left__isnull=True).select_related("user")
    )
    mine = None
    if request.user.is_authenticated:
        mine = next((m for m in members if m.user_id == request.user.pk), None)
    return render(
        request,
        "tournaments/league.html",
        {
            "league": league,
            "members": members,
            "mine": mine,
            "seasons": list(league.seasons.order_by("-number")),
            "may_manage": services.may_manage(request.user, league),
            "history": leagues.history(league, request.user) if mine else [],
        },
    )


def season_page(request: HttpRequest, league_id: int, number: int) -> HttpResponse:
    season = get_object_or_404(
        Season.objects.select_related("league"), league_id=league_id, number=number
    )
    return render(
        request,
        "tournaments/season.html",
        {"season": season, "league": season.league, "tables": leagues.season_tables(season)},
    )


def league_history(request: HttpRequest, league_id: int, username: str) -> HttpResponse:
    league = get_object_or_404(leagues_queryset(), pk=league_id)
    player = get_object_or_404(get_user_model(), username=username)
    return render(
        request,
        "tournaments/league_history.html",
        {"league": league, "player": player, "history": leagues.history(league, player)},
    )


@login_required
@require_POST
def league_action(request: SignedInHttpRequest, league_id: int, action: str) -> HttpResponse:
    league = get_object_or_404(leagues_queryset(), pk=league_id)
    calls = {
        "join": (
            lambda: leagues.join_league(league=league, user=request.user),
            _("You are in the league: you play from the next season on."),
        ),
        "leave": (
            lambda: leagues.leave_league(league=league, user=request.user),
            _("You have left the league: the season being played goes on."),
        ),
        "start": (
            lambda: leagues.start_league(league=league, by=request.user),
            _("Season 1 has started: its games are being paired."),
        ),
    }
    if action not in calls:
        raise Http404
    call, done = calls[action]
    try:
        call()
    except DomainError as exc:
        messages.error(request, str(exc.message))
    else:
        messages.success(request, done)
    return redirect("tournaments:league", league_id=league.pk)
