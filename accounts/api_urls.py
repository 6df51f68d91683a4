"""Account API routes (in the "api" namespace: config/api_urls.py)."""

from django.urls import path

from accounts.api import views

urlpatterns = [
    path("accounts", views.AccountsView.as_view(), name="accounts"),
    path("auth/token", views.TokenView.as_view(), name="token"),
    # Beside ratings' players/<username> (ratings/api_urls.py); blocking is an account's.
    path("players/<str:username>/block", views.PlayerBlockView.as_view(), name="player-block"),
]
