"""Pages of the archive: the filtered list of finished games, the .agn import and the
.agn downloads of one game and of a tournament.

They keep the URL names they had: ``web:archive``, ``web:import`` and ``web:record``
(and ``web:import-job``, an import's progress and report)
(web/urls.py routes them), ``tournaments:games`` (config/urls.py mounts
archive/urls.py's list in that namespace).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from archive import forms, imports, services
from archive.models import ImportJob
from core.errors import DomainError
from core.jobs import jobs_ahead_text
from core.requests import SignedInHttpRequest
from games import errors
from games.models import Game
from tournaments.api.views import tournaments_queryset


def archive_page(request: HttpRequest) -> HttpResponse:
    form = forms.ArchiveFilterForm(request.GET or None)
    ids = Game.objects.none().values_list("id", flat=True)
    if not request.GET or form.is_valid():
        filters = form.cleaned_data if request.GET else {}
        ids = services.archive_queryset(filters).values_list("id", flat=True)
    # Page through ids only (an index scan, however deep the page), then load that page's
    # 50 games with their players.
    page = Paginator(ids, 50).get_page(request.GET.get("page"))
    rows = Game.objects.select_related("white__profile", "black__profile").in_bulk(
        list(page.object_list)
    )
    # The page lists the games from now on, not their ids (Page is typed for one kind).
    page.object_list = [rows[game_id] for game_id in page.object_list]  # type: ignore[misc]
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "page": page,
        "query": query.urlencode(),
        "export_url": reverse("api:archive") + ("?" + query.urlencode() if query else ""),
        "joiner": "&" if query else "?",
    }
    return render(request, "archive/archive.html", context)


@login_required
def import_page(request: SignedInHttpRequest) -> HttpResponse:
    """Upload an .agn file: it becomes a job (archive.imports), whose page shows its progress."""
    form = forms.ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            job = imports.create_job(
                owner=request.user, text=imports.read_upload(upload), file_name=upload.name or ""
            )
        except DomainError as exc:
            form.add_error("file", str(exc.message))
        else:
            return redirect("web:import-job", job_id=job.pk)
    jobs = (
        ImportJob.objects.filter(owner=request.user)
        .only("id", "file_name", "status", "created")
        .order_by("-id")[:10]
    )
    return render(request, "archive/import.html", {"form": form, "jobs": jobs})


@login_required
def import_job_page(request: SignedInHttpRequest, job_id: int) -> HttpResponse:
    """A job's progress (the page reloads itself while the job runs) and per-game report."""
    job = get_object_or_404(
        ImportJob.objects.filter(owner=request.user).defer("text", "records"), pk=job_id
    )
    entries = [imports.ReportEntry.from_json(item) for item in job.report]
    rows = [(entry, imports.entry_text(entry)) for entry in entries]
    context = {
        "job": job,
        "error": imports.job_error_text(job),
        "rows": rows,
        "refresh_seconds": 2 if job.is_active else None,
        "place": jobs_ahead_text(imports.import_place(job)) if job.is_active else "",
    }
    return render(request, "archive/import_job.html", context)


def game_record(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        # ?evals=1: the computer analysis's evaluations as comments (when there is one).
        text = services.game_agn(game_id, with_evaluations=request.GET.get("evals") == "1")
    except errors.DomainError as exc:
        messages.error(request, str(exc.message))
        return redirect("web:game", game_id=game_id)
    if text is None:
        raise Http404
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="adaptoid-game-{game_id}.agn"'
    return response


def tournament_games(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(tournaments_queryset(), pk=tournament_id)
    response = HttpResponse(
        services.tournament_agn(tournament), content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.agn"'
    return response
