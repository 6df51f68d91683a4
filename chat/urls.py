"""Message pages' routes (the "chat" namespace, mounted at the root by config/urls.py)."""

from django.urls import path

from chat import views

app_name = "chat"

urlpatterns = [
    path("games/<int:game_id>/messages/", views.game_messages, name="messages"),
    path("games/<int:game_id>/messages/<int:message_id>/report/", views.report, name="report"),
]
