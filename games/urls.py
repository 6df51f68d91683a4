"""Game pages (in the "web" namespace: web/urls.py); the JSON API is games/api_urls.py."""

from django.urls import path

from games import agreement_views, conditional_views, views

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
    path("games/<int:game_id>/draw/", agreement_views.draw, name="draw"),
    path("games/<int:game_id>/abort/", agreement_views.abort, name="abort"),
    path("games/<int:game_id>/rematch/", agreement_views.rematch, name="rematch"),
    path("games/<int:game_id>/notes/", agreement_views.notes, name="notes"),
    path(
        "games/<int:game_id>/conditional/",
        conditional_views.conditional_page,
        name="conditional",
    ),
    path("board.svg", views.position_svg, name="board-svg"),
    path("board/preview.json", views.turn_preview, name="turn-preview"),
    path("analysis/", views.analysis, name="analysis"),
]
