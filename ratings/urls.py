"""Web pages of the ratings: the leaderboard and a player's rating chart (ratings/views.py)."""

from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("players/<str:username>/rating.svg", views.rating_svg, name="rating-svg"),
]
