"""Challenge and game API routes (in the "api" namespace: config/api_urls.py)."""

from django.urls import path

from games.api import agreements, conditional, views

urlpatterns = [
    path("challenges", views.ChallengesView.as_view(), name="challenges"),
    path("challenges/<int:challenge_id>", views.ChallengeDetailView.as_view(), name="challenge"),
    path(
        "challenges/<int:challenge_id>/accept",
        views.AcceptChallengeView.as_view(),
        name="challenge-accept",
    ),
    path(
        "challenges/<int:challenge_id>/decline",
        views.DeclineChallengeView.as_view(),
        name="challenge-decline",
    ),
    path(
        "challenges/<int:challenge_id>/cancel",
        views.CancelChallengeView.as_view(),
        name="challenge-cancel",
    ),
    path("games", views.GamesView.as_view(), name="games"),
    path("games/<int:game_id>", views.GameDetailView.as_view(), name="game"),
    path("games/<int:game_id>/legal", views.LegalTurnsView.as_view(), name="game-legal"),
    path("games/<int:game_id>/turns", views.TurnsView.as_view(), name="game-turns"),
    path("games/<int:game_id>/setup", views.SetupView.as_view(), name="game-setup"),
    path("games/<int:game_id>/choose", views.ChooseView.as_view(), name="game-choose"),
    path("games/<int:game_id>/resign", views.ResignView.as_view(), name="game-resign"),
    path("games/<int:game_id>/draw", agreements.DrawView.as_view(), name="game-draw"),
    path("games/<int:game_id>/abort", agreements.AbortView.as_view(), name="game-abort"),
    path("games/<int:game_id>/rematch", agreements.RematchView.as_view(), name="game-rematch"),
    path("games/<int:game_id>/notes", agreements.NotesView.as_view(), name="game-notes"),
    path(
        "games/<int:game_id>/conditional",
        conditional.ConditionalView.as_view(),
        name="game-conditional",
    ),
]
