"""API v1 routes for bots, bot matches, players/ratings and the event stream.

Appended to games/api_urls.py (same /api/v1/ prefix and "api" namespace).
"""

from django.urls import path

from games.api import bots, stream

urlpatterns = [
    path("bots", bots.BotsView.as_view(), name="bots"),
    path("bot-matches", bots.BotMatchesView.as_view(), name="bot-matches"),
    path("bot-matches/<int:match_id>", bots.BotMatchDetailView.as_view(), name="bot-match"),
    path("bot-matches/<int:match_id>/stop", bots.BotMatchStopView.as_view(), name="bot-match-stop"),
    path("me/bot", bots.MeBotView.as_view(), name="me-bot"),
    path("players", bots.PlayersView.as_view(), name="players"),
    path("players/<str:username>", bots.PlayerDetailView.as_view(), name="player"),
    path("stream/events", stream.EventStreamView.as_view(), name="stream-events"),
]
