from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = _("Analysis")

    def ready(self) -> None:
        # A game finished → the explorer indexes it, after the commit (games.signals).
        from analysis import receivers  # noqa: F401
        from analysis.errors import register
        from analysis.services import register_jobs

        register()
        register_jobs()  # the evaluation and analysis kinds of core.jobs
