"""Game page parts for draw offers, aborts, rematches and private notes: the forms
post here, and these views call games.agreements like the API does."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.requests import SignedInHttpRequest
from games import agreements, errors, services
from games.models import Challenge, Game
from games.views import run


def page_context(game: Game, user: Any) -> dict[str, Any]:
    """What _agreements.html and _notes.html show to this visitor (nothing to others)."""
    color = game.color_of(user.pk) if user.is_authenticated else None
    if color is None:
        return {}
    context: dict[str, Any] = {
        "draw_offer_mine": game.draw_offer == color,
        "draw_offer_theirs": bool(game.draw_offer) and game.draw_offer != color,
        "can_offer_draw": game.status == Game.Status.ACTIVE,
        "can_abort": agreements.can_abort(game),
        "notes_text": agreements.note_text(game=game, user=user),
        "notes_max": agreements.GameNote.MAX_LENGTH,
    }
    if game.status == Game.Status.FINISHED and not game.imported:
        rematch = (
            Challenge.objects.filter(
                rematch_of=game, status__in=[Challenge.Status.OPEN, Challenge.Status.ACCEPTED]
            )
            .order_by("-pk")
            .first()
        )
        context["rematch"] = rematch
        context["rematch_incoming"] = (
            rematch is not None
            and rematch.status == Challenge.Status.OPEN
            and rematch.opponent_id == user.pk
        )
        context["can_rematch"] = True
    return context


@login_required
@require_POST
def draw(request: SignedInHttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if request.POST.get("action") == "cancel":
        if run(request, lambda: agreements.cancel_draw_offer(game=game, player=request.user)):
            messages.success(request, _("The draw offer is withdrawn."))
        return redirect("web:game", game_id=game.pk)
    done = run(request, lambda: agreements.offer_draw(game=game, player=request.user))
    if done is not None:
        if done[1] is agreements.DrawAnswer.AGREED:
            messages.success(request, _("Draw agreed."))
        else:
            messages.success(request, _("You offered a draw."))
    return redirect("web:game", game_id=game.pk)


@login_required
@require_POST
def abort(request: SignedInHttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if run(request, lambda: agreements.abort(game=game, player=request.user)):
        messages.success(request, _("The game is aborted."))
    return redirect("web:game", game_id=game.pk)


@login_required
@require_POST
def rematch(request: SignedInHttpRequest, game_id: int) -> HttpResponse:
    """Ask for a rematch, or accept the opponent's (the same call); or decline theirs."""
    game = get_object_or_404(Game, pk=game_id)
    if request.POST.get("action") == "decline":
        pending = agreements.pending_rematch(game)
        if pending is None:
            messages.error(request, str(errors.ChallengeClosed.default_message))
        elif run(
            request, lambda: services.decline_challenge(challenge=pending, player=request.user)
        ):
            messages.success(request, _("Challenge declined."))
        return redirect("web:game", game_id=game.pk)
    done = run(request, lambda: agreements.rematch(game=game, player=request.user))
    if done is not None:
        challenge = done[0]
        challenge.refresh_from_db()
        if challenge.game_id is not None:
            return redirect("web:game", game_id=challenge.game_id)
        messages.success(request, _("Rematch offered."))
    return redirect("web:game", game_id=game.pk)


@login_required
@require_POST
def notes(request: SignedInHttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    # Browsers send a textarea's line breaks as CRLF: one character each, as typed.
    text = request.POST.get("text", "").replace("\r\n", "\n")
    if (
        run(request, lambda: agreements.save_note(game=game, user=request.user, text=text))
        is not None
    ):
        messages.success(request, _("Notes saved."))
    return redirect("web:game", game_id=game.pk)
