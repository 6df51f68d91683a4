"""Pages of the archive: the filtered list of finished games, the .agn import and the
.agn downloads of one game and of a tournament.

They keep the URL names they had: ``web:archive``, ``web:import`` and ``web:record``
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
from django.utils.translation import gettext as _

from archive import forms, services
from games import errors
from games.models import Game
from tournaments.api.views import tournaments_queryset

IMPORT_MAX_BYTES = 10_000_000


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
    page.object_list = [rows[game_id] for game_id in page.object_list]
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
def import_page(request: HttpRequest) -> HttpResponse:
    form = forms.ImportForm(request.POST or None, request.FILES or None)
    report = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if upload.size > IMPORT_MAX_BYTES:
            form.add_error(
                "file",
                _("The file is larger than %(mb)d MB: split it into smaller files.")
                % {"mb": IMPORT_MAX_BYTES // 1_000_000},
            )
            return render(request, "archive/import.html", {"form": form, "report": None})
        try:
            text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            form.add_error("file", _("The file is not UTF-8 text."))
        else:
            report = services.import_games(user=request.user, text=text)
    return render(request, "archive/import.html", {"form": form, "report": report})


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
