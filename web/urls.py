"""Pages of the website, one "web" namespace for every app's pages (mounted at the root
by config/urls.py): home, rules, language, players and the archive here; the apps' own."""

from django.urls import path

from accounts.urls import urlpatterns as account_pages
from archive import views as archive_views
from games.urls import urlpatterns as game_pages
from web import views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("waiting/", views.awaiting_page, name="awaiting"),
    path("status.json", views.status, name="status"),
    path("language/", views.set_language, name="set-language"),
    path("players/<str:username>/", views.player_page, name="player"),
    path("archive/", archive_views.archive_page, name="archive"),
    path("import/", archive_views.import_page, name="import"),
    path("import/<int:job_id>/", archive_views.import_job_page, name="import-job"),
    path("games/<int:game_id>/record.agn", archive_views.game_record, name="record"),
    *account_pages,
    *game_pages,
]
