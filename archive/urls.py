"""The archive's routes, each kept under the namespace and name it always had.

The archive sits above games and tournaments (which must not import it), so
config/urls.py adds these lists to their namespaces: ``api`` (under /api/v1/),
``tournaments_api`` (under /api/v1/) and ``tournaments`` (under /tournaments/).
The archive's own pages (``web:archive``, ``web:import``, ``web:record``) are
routed by web/urls.py.
"""

from django.urls import path

from archive import api, views

api_urlpatterns = [
    path("games/<int:game_id>/record", api.RecordView.as_view(), name="game-record"),
    path("archive", api.ArchiveView.as_view(), name="archive"),
    path("imports", api.ImportJobsView.as_view(), name="imports"),
    path("imports/<int:job_id>", api.ImportJobView.as_view(), name="import-job"),
]

tournaments_api_urlpatterns = [
    path(
        "tournaments/<int:tournament_id>/games",
        api.TournamentGamesView.as_view(),
        name="games",
    ),
]

tournaments_urlpatterns = [
    path("<int:tournament_id>/games.agn", views.tournament_games, name="games"),
]
