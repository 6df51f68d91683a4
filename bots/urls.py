"""Web pages for bots and bot matches (bots/views.py)."""

from django.urls import path

from bots import views

app_name = "bots"

urlpatterns = [
    path("bots/", views.bots_page, name="bots"),
    path("bots/<str:username>/challenge/", views.challenge_bot, name="challenge"),
    path("bots/challenges/<int:challenge_id>/", views.challenge_wait, name="challenge-wait"),
    path("bot-matches/new/", views.match_new, name="match-new"),
    path("bot-matches/<int:match_id>/", views.match_page, name="match"),
    path("bot-matches/<int:match_id>/stop/", views.match_stop, name="match-stop"),
]
