"""Tournaments API routes, included by config/urls.py under /api/v1/."""

from django.urls import path

from tournaments.api import arbiter, formats, views

app_name = "tournaments_api"

urlpatterns = [
    path("tournaments", views.TournamentsView.as_view(), name="list"),
    path("tournaments/<int:tournament_id>", views.TournamentDetailView.as_view(), name="detail"),
    path("tournaments/<int:tournament_id>/join", views.JoinView.as_view(), name="join"),
    path("tournaments/<int:tournament_id>/withdraw", views.WithdrawView.as_view(), name="withdraw"),
    path("tournaments/<int:tournament_id>/start", views.StartView.as_view(), name="start"),
    path("tournaments/<int:tournament_id>/byes", views.ByesView.as_view(), name="byes"),
    path("tournaments/<int:tournament_id>/absent", views.AbsentView.as_view(), name="absent"),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/boards/<int:board>/adjudicate",
        views.AdjudicateView.as_view(),
        name="adjudicate",
    ),
    path(
        "tournaments/<int:tournament_id>/byes/<int:number>",
        views.ByeView.as_view(),
        name="bye",
    ),
    path(
        "tournaments/<int:tournament_id>/standings",
        views.StandingsView.as_view(),
        name="standings",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>",
        views.RoundView.as_view(),
        name="round",
    ),
    path("tournaments/<int:tournament_id>/trf", views.TrfView.as_view(), name="trf"),
    # Arbiter control (tournaments.arbiter, tournaments.trf_import)
    path("tournaments/<int:tournament_id>/draft", arbiter.DraftView.as_view(), name="draft"),
    path(
        "tournaments/<int:tournament_id>/draft/publish",
        arbiter.PublishView.as_view(),
        name="draft-publish",
    ),
    path(
        "tournaments/<int:tournament_id>/arbiter",
        arbiter.ArbiterOptionsView.as_view(),
        name="arbiter-options",
    ),
    path(
        "tournaments/<int:tournament_id>/forbidden-pairs",
        arbiter.ForbiddenPairsView.as_view(),
        name="forbidden-pairs",
    ),
    path(
        "tournaments/<int:tournament_id>/forbidden-pairs/<int:pair_id>",
        arbiter.ForbiddenPairView.as_view(),
        name="forbidden-pair",
    ),
    path("tournament-imports", arbiter.TrfImportsView.as_view(), name="imports"),
    path("tournament-imports/<int:import_id>", arbiter.TrfImportView.as_view(), name="import"),
    path("tournament-invitations", arbiter.SeatInvitationsView.as_view(), name="invitations"),
    path(
        "tournament-invitations/<int:invitation_id>/accept",
        arbiter.SeatInvitationAcceptView.as_view(),
        name="invitation-accept",
    ),
    path(
        "tournament-invitations/<int:invitation_id>/decline",
        arbiter.SeatInvitationDeclineView.as_view(),
        name="invitation-decline",
    ),
    # Knockout cups and championship leagues (tournaments.knockout, tournaments.leagues).
    path("tournaments/<int:tournament_id>/bracket", formats.BracketView.as_view(), name="bracket"),
    path("leagues", formats.LeaguesView.as_view(), name="leagues"),
    path("leagues/<int:league_id>", formats.LeagueDetailView.as_view(), name="league"),
    path("leagues/<int:league_id>/join", formats.LeagueJoinView.as_view(), name="league-join"),
    path("leagues/<int:league_id>/leave", formats.LeagueLeaveView.as_view(), name="league-leave"),
    path("leagues/<int:league_id>/start", formats.LeagueStartView.as_view(), name="league-start"),
    path(
        "leagues/<int:league_id>/seasons/<int:number>",
        formats.SeasonView.as_view(),
        name="season",
    ),
    path(
        "leagues/<int:league_id>/players/<str:username>",
        formats.LeagueHistoryView.as_view(),
        name="league-history",
    ),
]
