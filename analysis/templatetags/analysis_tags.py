"""{% game_analysis game view_ply %}: the game page's analysis panel (the graph, the
judged turns with the better ones, the Analyse button); see analysis/_panel.html."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from analysis import services
from analysis.graph import evaluation_svg
from analysis.models import GameAnalysis
from core import jobs

register = template.Library()


def judgement_label(judgement: str) -> str:
    labels = {"inaccuracy": _("Inaccuracy"), "mistake": _("Mistake"), "blunder": _("Blunder")}
    return labels[judgement]


@register.inclusion_tag("analysis/_panel.html", takes_context=True)
def game_analysis(context: Any, game: Any, view_ply: int | None = None) -> dict[str, Any]:
    if game.status != "finished" or not game.start_position:
        return {"game": game}  # no panel, no query (games/game.html shows every game)
    request = context.get("request")
    user = getattr(request, "user", None)
    analysis = GameAnalysis.objects.filter(game=game).first()
    failed = analysis is not None and analysis.status == GameAnalysis.Status.FAILED
    panel: dict[str, Any] = {
        "game": game,
        "analysis": None if failed else analysis,
        "can_request": (
            (analysis is None or failed)
            and game.status == "finished"
            and bool(game.start_position)
            and bool(user and user.is_authenticated)
        ),
        "failed": str(services.ANALYSIS_FAILED) if failed else "",
        "csrf_token": context.get("csrf_token"),
    }
    if analysis is None or failed:
        return panel
    if analysis.status != GameAnalysis.Status.DONE:
        panel["progress"] = int(services.progress(analysis) * 100)
        job = services.analysis_job(analysis)
        panel["place"] = jobs.jobs_ahead_text(jobs.place_in_line(job) if job else None)
        return panel
    entries = services.turn_entries(analysis)
    start = analysis.rows.filter(ply=0).values_list("expected", flat=True).first()
    points: list[tuple[int, float, str, str | None]] = []
    if start is not None:
        points.append((0, start, _("Start: %(eval)s") % {"eval": f"{start:.2f}"}, None))
    marked = []
    for entry in entries:
        label = f"{entry.ply}. {entry.turn}: {entry.eval:.2f}"
        if entry.judgement:
            label += f" ({judgement_label(entry.judgement)})"
            marked.append(
                {
                    "ply": entry.ply,
                    "turn": entry.turn,
                    "best": entry.best,
                    "judgement": entry.judgement,
                    "label": judgement_label(entry.judgement),
                    "eval": entry.eval,
                }
            )
        points.append((entry.ply, entry.eval, label, entry.judgement))
    panel["graph"] = evaluation_svg(
        points, current=view_ply, title=_("White's expected score after each turn")
    )
    panel["marked"] = marked
    return panel
