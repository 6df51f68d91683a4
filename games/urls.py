"""Game pages (in the "web" namespace: web/urls.py); the JSON API is games/api_urls.py."""

from django.urls import path

from games import views

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path(
        "challenges/<int:challenge_id>/<str:action>/",
        views.challenge_action,
        name="challenge-action",
    ),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/play/", views.play, name="play"),
    path("games/<int:game_id>/setup/", views.pie_setup, name="pie-setup"),
    path("games/<int:game_id>/choose/", views.pie_choose, name="pie-choose"),
    path("games/<int:game_id>/resign/", views.resign, name="resign"),
    path("board.svg", views.position_svg, name="board-svg"),
    path("board/preview.json", views.turn_preview, name="turn-preview"),
    path("analysis/", views.analysis, name="analysis"),
]
