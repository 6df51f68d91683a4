"""API v1 routes, included by config/urls.py under /api/v1/ (with the archive's routes,
archive/urls.py, in the same "api" namespace)."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games.api import views

app_name = "api"

urlpatterns = [
    path("accounts", views.AccountsView.as_view(), name="accounts"),
    path("auth/token", views.TokenView.as_view(), name="token"),
    path("challenges", views.ChallengesView.as_view(), name="challenges"),
    path("challenges/<int:challenge_id>", views.ChallengeDetailView.as_view(), name="challenge"),
    path(
        "challenges/<int:challenge_id>/accept",
        views.AcceptChallengeView.as_view(),
        name="challenge-accept",
    ),
    path(
        "challenges/<int:challenge_id>/decline",
        views.DeclineChallengeView.as_view(),
        name="challenge-decline",
    ),
    path(
        "challenges/<int:challenge_id>/cancel",
        views.CancelChallengeView.as_view(),
        name="challenge-cancel",
    ),
    path("games", views.GamesView.as_view(), name="games"),
    path("games/<int:game_id>", views.GameDetailView.as_view(), name="game"),
    path("games/<int:game_id>/legal", views.LegalTurnsView.as_view(), name="game-legal"),
    path("games/<int:game_id>/turns", views.TurnsView.as_view(), name="game-turns"),
    path("games/<int:game_id>/setup", views.SetupView.as_view(), name="game-setup"),
    path("games/<int:game_id>/choose", views.ChooseView.as_view(), name="game-choose"),
    path("games/<int:game_id>/resign", views.ResignView.as_view(), name="game-resign"),
    path("schema", SpectacularAPIView.as_view(), name="schema"),
    path("docs", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
]

# Bots, bot matches, players and ratings, the event stream (games/bot_api_urls.py).
from games.bot_api_urls import urlpatterns as _bot_urlpatterns

urlpatterns += _bot_urlpatterns
