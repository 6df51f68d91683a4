"""Arbiter control pages: the draft round, forbidden pairs and options, TRF imports and
the invitations they send.

Views parse and format; every change goes through tournaments.arbiter / trf_import and a
refusal becomes a message in words.  No script (strict CSP): plain forms.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.requests import SignedInHttpRequest
from tournaments import arbiter, errors, services, trf_import
from tournaments.models import Participant, Tournament, TrfImport
from tournaments.trf_messages import translate_trf_error
from tournaments.views import _tournament


def _managed(request: HttpRequest, tournament_id: int) -> Tournament:
    tournament = _tournament(tournament_id)
    if not services.may_manage(request.user, tournament):
        raise PermissionDenied
    return tournament


def _number(request: HttpRequest, name: str) -> int | None:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        return None


@login_required
def draft_page(request: SignedInHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _managed(request, tournament_id)
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "publish":
                arbiter.publish(tournament=tournament, by=request.user)
                messages.success(request, _("The round is being published."))
                return redirect("tournaments:detail", tournament_id=tournament.pk)
            values = {
                name: _number(request, name)
                for name in ("board", "first", "second", "player", "white", "black")
                if request.POST.get(name)
            }
            arbiter.edit_draft(tournament=tournament, by=request.user, action=action, **values)
            messages.success(request, _("Draft changed."))
        except DomainError as exc:
            messages.error(request, str(exc.message))
        return redirect("tournaments:draft", tournament_id=tournament.pk)
    draft = arbiter.draft_of(tournament)
    players = {p.seed: p for p in tournament.participants.select_related("user") if p.seed}
    boards = []
    warnings = arbiter.warnings(tournament, draft) if draft else []
    if draft is not None:
        for number, (white, black) in enumerate(draft.boards, start=1):
            boards.append(
                {
                    "number": number,
                    "white": players.get(white),
                    "black": players.get(black) if black else None,
                    "warnings": [w for w in warnings if w.board == number],
                }
            )
    paired = sorted((p for s, p in players.items() if draft and s in _seeds(draft)), key=_seed)
    return render(
        request,
        "tournaments/draft.html",
        {
            "tournament": tournament,
            "draft": draft,
            "boards": boards,
            "warnings": warnings,
            "players": paired,
            "half_point_byes": [players[s] for s in (draft.half_point_byes if draft else [])],
            "rounds": range(1, tournament.current_round + 1),
        },
    )


def _seeds(draft: object) -> set[int]:
    return {s for board in getattr(draft, "boards", []) for s in board if s}


def _seed(participant: Participant) -> int:
    return participant.seed or 0


@login_required
def arbiter_page(request: SignedInHttpRequest, tournament_id: int) -> HttpResponse:
    """Forbidden pairs and the arbiter options of a Swiss."""
    tournament = _managed(request, tournament_id)
    if request.method == "POST":
        action = request.POST.get("action", "")
        entries = Participant.objects.filter(tournament=tournament)
        try:
            if action == "add":
                first = get_object_or_404(entries, pk=_number(request, "first") or 0)
                second = get_object_or_404(entries, pk=_number(request, "second") or 0)
                arbiter.add_forbidden_pair(
                    tournament=tournament, by=request.user, first=first, second=second
                )
                messages.success(request, _("Forbidden pair added."))
            elif action == "remove":
                arbiter.remove_forbidden_pair(
                    tournament=tournament, by=request.user, pair_id=_number(request, "pair") or 0
                )
                messages.success(request, _("Forbidden pair removed."))
            elif action == "options":
                arbiter.set_arbiter_options(
                    tournament=tournament,
                    by=request.user,
                    arbiter_publishes=bool(request.POST.get("arbiter_publishes")),
                    avoid_same_club=bool(request.POST.get("avoid_same_club")),
                )
                messages.success(request, _("Options saved."))
            else:
                raise Http404
        except DomainError as exc:
            messages.error(request, str(exc.message))
        return redirect("tournaments:arbiter", tournament_id=tournament.pk)
    return render(
        request,
        "tournaments/arbiter.html",
        {
            "tournament": tournament,
            "pairs": arbiter.forbidden_pairs(tournament),
            "participants": list(
                tournament.participants.select_related("user").order_by("user__username")
            ),
            "draft": arbiter.draft_of(tournament),
            "rounds": range(1, tournament.current_round + 1),
        },
    )


@login_required
def import_page(request: SignedInHttpRequest) -> HttpResponse:
    if not services.can_organise(request.user):
        raise PermissionDenied
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise errors.InvalidImport(_("Choose a TRF-16 file."))
            if (upload.size or 0) > trf_import.MAX_FILE_BYTES:
                raise errors.InvalidImport(
                    _("A TRF file may have at most %(n)d bytes.") % {"n": trf_import.MAX_FILE_BYTES}
                )
            job = trf_import.queue_import(
                organiser=request.user,
                data=upload.read(),
                name=request.POST.get("name", ""),
                match_users=bool(request.POST.get("match_users")),
                arbiter_publishes=bool(request.POST.get("arbiter_publishes")),
            )
        except DomainError as exc:
            messages.error(request, str(exc.message))
        else:
            return redirect("tournaments:import-status", import_id=job.pk)
    return render(request, "tournaments/import.html", {})


@login_required
def import_status(request: HttpRequest, import_id: int) -> HttpResponse:
    job = get_object_or_404(TrfImport, pk=import_id)
    if not (request.user.is_staff or job.organiser_id == request.user.pk):
        raise Http404
    return render(
        request,
        "tournaments/import_status.html",
        {"job": job, "error": translate_trf_error(job.error)},
    )


@login_required
def invitations_page(request: SignedInHttpRequest) -> HttpResponse:
    """The signed-in account's invitations to imported places, answered with a click."""
    if request.method == "POST":
        answer = request.POST.get("answer")
        try:
            if answer not in ("accept", "decline"):
                raise errors.InvalidTournament(_("Answer accept or decline."))
            invitation = trf_import.answer_invitation(
                invitation_id=_number(request, "invitation") or 0,
                user=request.user,
                accept=answer == "accept",
            )
        except DomainError as exc:
            messages.error(request, str(exc.message))
        else:
            if invitation.status == invitation.Status.ACCEPTED:
                messages.success(request, _("You have taken the place."))
            else:
                messages.success(request, _("Declined: the place stays the imported player's."))
        return redirect("tournaments:invitations")
    return render(
        request,
        "tournaments/invitations.html",
        {"invitations": trf_import.invitations_of(request.user)},
    )
