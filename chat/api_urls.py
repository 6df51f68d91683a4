"""Game message API routes (in the "api" namespace: config/api_urls.py)."""

from django.urls import path

from chat import api

urlpatterns = [
    path("games/<int:game_id>/messages", api.MessagesView.as_view(), name="game-messages"),
    path(
        "games/<int:game_id>/messages/<int:message_id>/report",
        api.ReportMessageView.as_view(),
        name="game-message-report",
    ),
]
