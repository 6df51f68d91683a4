"""Players and ratings API routes, included by config/urls.py under /api/v1/."""

from django.urls import path

from ratings import api

app_name = "ratings-api"

urlpatterns = [
    path("players", api.PlayersView.as_view(), name="players"),
    path("players/<str:username>", api.PlayerDetailView.as_view(), name="player"),
]
