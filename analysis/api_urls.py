"""Analysis and explorer API routes, included by config/urls.py under /api/v1/."""

from django.urls import path

from analysis import api

app_name = "analysis-api"

urlpatterns = [
    path("games/<int:game_id>/analysis", api.GameAnalysisView.as_view(), name="game-analysis"),
    path("explorer", api.ExplorerView.as_view(), name="explorer"),
    path("evaluations", api.EvaluationsView.as_view(), name="evaluations"),
    path("evaluations/<str:job_id>", api.EvaluationView.as_view(), name="evaluation"),
]
