"""Tournament pages, mounted at /tournaments/ by config/urls.py."""

from django.urls import path

from tournaments import arbiter_views, format_views, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_create, name="create"),
    path("import/", arbiter_views.import_page, name="import"),
    path("imports/<int:import_id>/", arbiter_views.import_status, name="import-status"),
    path("invitations/", arbiter_views.invitations_page, name="invitations"),
    path("<int:tournament_id>/draft/", arbiter_views.draft_page, name="draft"),
    path("<int:tournament_id>/arbiter/", arbiter_views.arbiter_page, name="arbiter"),
    path("<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("<int:tournament_id>/crosstable/", views.crosstable, name="crosstable"),
    path("<int:tournament_id>/rounds/<int:number>/", views.round_page, name="round"),
    path("<int:tournament_id>/tournament.trf", views.trf_download, name="trf"),
    # Knockout cups and championship leagues (tournaments.format_views).
    path("<int:tournament_id>/bracket/", format_views.bracket, name="bracket"),
    path("leagues/", format_views.league_list, name="leagues"),
    path("leagues/new/", format_views.league_create, name="league-create"),
    path("leagues/<int:league_id>/", format_views.league_detail, name="league"),
    path("leagues/<int:league_id>/seasons/<int:number>/", format_views.season_page, name="season"),
    path(
        "leagues/<int:league_id>/players/<str:username>/",
        format_views.league_history,
        name="league-history",
    ),
    path("leagues/<int:league_id>/<str:action>/", format_views.league_action, name="league-action"),
    path("<int:tournament_id>/<str:action>/", views.tournament_action, name="action"),
]
