"""Notification API routes, included by config/urls.py under /api/v1/."""

from django.urls import path

from notifications import api

app_name = "notifications-api"

urlpatterns = [
    path("notifications", api.NotificationsView.as_view(), name="list"),
    path("notifications/read", api.MarkReadView.as_view(), name="read"),
]
