"""Clock API routes, included by config/urls.py under /api/v1/."""

from django.urls import path

from clocks import api

app_name = "clocks-api"

urlpatterns = [
    path("me/vacation", api.VacationView.as_view(), name="vacation"),
    path("me/preferences", api.PreferencesView.as_view(), name="preferences"),
]
