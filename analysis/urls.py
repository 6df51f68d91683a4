"""Pages of the analysis app (mounted at the root by config/urls.py, "analysis" namespace)."""

from django.urls import path

from analysis import views

app_name = "analysis"

urlpatterns = [
    path("explorer/", views.explorer_page, name="explorer"),
    path("games/<int:game_id>/analyse/", views.analyse, name="analyse"),
]
