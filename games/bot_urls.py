"""Web pages for bots, bot matches, the leaderboard and rating charts (games/bot_views.py)."""

from django.urls import path

from games import bot_views

app_name = "bots"

urlpatterns = [
    path("bots/", bot_views.bots_page, name="bots"),
    path("bots/<str:username>/challenge/", bot_views.challenge_bot, name="challenge"),
    path("bots/challenges/<int:challenge_id>/", bot_views.challenge_wait, name="challenge-wait"),
    path("bot-matches/new/", bot_views.match_new, name="match-new"),
    path("bot-matches/<int:match_id>/", bot_views.match_page, name="match"),
    path("bot-matches/<int:match_id>/stop/", bot_views.match_stop, name="match-stop"),
    path("leaderboard/", bot_views.leaderboard, name="leaderboard"),
    path("players/<str:username>/rating.svg", bot_views.rating_svg, name="rating-svg"),
]
