"""Notification pages, mounted at /notifications/ by config/urls.py."""

from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("", views.notification_list, name="list"),
    path("read/", views.mark_all_read, name="read"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
