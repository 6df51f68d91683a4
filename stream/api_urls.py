"""Event stream API route, included by config/urls.py under /api/v1/."""

from django.urls import path

from stream import api

app_name = "stream-api"

urlpatterns = [
    path("stream/events", api.EventStreamView.as_view(), name="events"),
    path("stream/page-events", api.PageEventStreamView.as_view(), name="page-events"),
]
