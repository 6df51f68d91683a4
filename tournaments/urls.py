"""Tournament pages, mounted at /tournaments/ by config/urls.py."""

from django.urls import path

from tournaments import arbiter_views, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_create, name="create"),
    path("import/", arbiter_views.import_page, name="import"),
    path("imports/<int:import_id>/", arbiter_views.import_status, name="import-status"),
    path("<int:tournament_id>/draft/", arbiter_views.draft_page, name="draft"),
    path("<int:tournament_id>/arbiter/", arbiter_views.arbiter_page, name="arbiter"),
    path("<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("<int:tournament_id>/crosstable/", views.crosstable, name="crosstable"),
    path("<int:tournament_id>/rounds/<int:number>/", views.round_page, name="round"),
    path("<int:tournament_id>/tournament.trf", views.trf_download, name="trf"),
    path("<int:tournament_id>/<str:action>/", views.tournament_action, name="action"),
]
