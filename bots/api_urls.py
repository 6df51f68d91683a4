"""Bot and bot-match API routes, included by config/urls.py under /api/v1/."""

from django.urls import path

from bots import api

app_name = "bots-api"

urlpatterns = [
    path("bots", api.BotsView.as_view(), name="bots"),
    path("bot-matches", api.BotMatchesView.as_view(), name="bot-matches"),
    path("bot-matches/<int:match_id>", api.BotMatchDetailView.as_view(), name="bot-match"),
    path("bot-matches/<int:match_id>/stop", api.BotMatchStopView.as_view(), name="bot-match-stop"),
    path("me/bot", api.MeBotView.as_view(), name="me-bot"),
]
