"""Account API routes (in the "api" namespace: config/api_urls.py)."""

from django.urls import path

from accounts.api import views

urlpatterns = [
    path("accounts", views.AccountsView.as_view(), name="accounts"),
    path("auth/token", views.TokenView.as_view(), name="token"),
]
