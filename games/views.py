"""Pages of games: the lobby, a game (play, pie setup, resign, record), the analysis
board.  Views parse and format; every change goes through games.services."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.services import blocked_either_way
from core.requests import SignedInHttpRequest
from engine import (
    IllegalTurnError,
    InvalidPositionError,
    InvalidTurnError,
    Position,
    Turn,
)
from games import errors, forms, services, signals
from games.board_svg import board_svg, turn_cells
from games.engine_messages import translate_reason
from games.models import Challenge, Color, Game

User = get_user_model()
T = TypeVar("T")
IMPORT_MAX_BYTES = 10_000_000


def _games() -> Any:
    return Game.objects.select_related("white__profile", "black__profile")


# --- Helpers ------------------------------------------------------------------------------


def board_labels() -> dict[str, str]:
    return {
        "empty": _("empty"),
        "white_piece": _("white adaptoid, %(legs)d legs, %(pincers)d pincers"),
        "black_piece": _("black adaptoid, %(legs)d legs, %(pincers)d pincers"),
        "board": _("Adaptoid board"),
    }


def draw(position: Position, **options: Any) -> str:
    return board_svg(position, labels=board_labels(), **options)


def run(request: HttpRequest, call: Callable[[], T]) -> T | None:
    """Call a service; a refusal becomes an error message in words (None returned)."""
    try:
        return call()
    except errors.DomainError as exc:
        messages.error(request, str(exc.message))
    except IllegalTurnError as exc:
        messages.error(
            request,
            _("The turn %(turn)s is not allowed here: %(reason)s.")
            % {"turn": exc.text, "reason": translate_reason(exc.reason)},
        )
    except InvalidTurnError as exc:
        messages.error(
            request,
            _("%(turn)s is not a turn in Adaptoid notation: %(reason)s.")
            % {"turn": exc.text or "''", "reason": translate_reason(exc.reason)},
        )
    return None


def player_name(user: Any) -> str:
    profile = getattr(user, "profile", None)
    return profile.shown_name if profile else user.get_username()


@dataclass
class TurnRow:
    ply: int
    text: str


@dataclass
class TurnLine:
    number: int
    white: TurnRow | None
    black: TurnRow | None


def turn_lines(texts: list[str], black_starts: bool) -> list[TurnLine]:
    """The turn list as numbered lines: ``1. D3 C6``; a line may start with Black."""
    lines: list[TurnLine] = []
    for index, text in enumerate(texts):
        ply = index + 1
        slot = index + (1 if black_starts else 0)
        number = slot // 2 + 1
        if slot % 2 == 0:
            lines.append(TurnLine(number, TurnRow(ply, text), None))
        else:
            if not lines:
                lines.append(TurnLine(number, None, None))
            lines[-1].black = TurnRow(ply, text)
    return lines


def parse_position(text: str) -> Position | None:
    try:
        return Position.from_string(" ".join(text.split()))
    except (InvalidPositionError, ValueError):
        return None


def query_int(request: HttpRequest, name: str) -> int | None:
    """A non-negative integer query parameter (ASCII digits, at most 9), else None."""
    raw = request.GET.get(name, "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else None


def game_turns_at(game: Game, ply: int | None) -> tuple[list[str], int, Position]:
    """(all turn texts, the viewed ply clamped to them, the position after it)."""
    texts = list(game.turns.order_by("ply").values_list("text", flat=True))
    view = len(texts) if ply is None else max(0, min(len(texts), ply))
    return texts, view, services.replay(game, texts[:view])


# --- Lobby --------------------------------------------------------------------------------


@login_required
def lobby(request: SignedInHttpRequest) -> HttpResponse:
    form = forms.ChallengeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        challenge = run(
            request,
            lambda: services.create_challenge(
                creator=request.user,
                opponent=data["opponent"].strip() or None,
                color=data["color"],
                opening=data["opening"],
                rated=data["rated"],
                time_control=data["time_control"],
            ),
        )
        if challenge is not None:
            messages.success(request, _("Your challenge is posted."))
            return redirect("web:lobby")
    challenges = Challenge.objects.select_related("created_by__profile", "opponent__profile")
    open_ones = challenges.filter(status=Challenge.Status.OPEN)
    context = {
        "form": form,
        "incoming": open_ones.filter(opponent=request.user),
        "outgoing": open_ones.filter(created_by=request.user),
        "open": open_ones.filter(opponent__isnull=True)
        .exclude(created_by=request.user)
        .exclude(created_by__in=blocked_either_way(request.user.pk))[:50],
    }
    return render(request, "games/lobby.html", context)


@login_required
@require_POST
def challenge_action(request: SignedInHttpRequest, challenge_id: int, action: str) -> HttpResponse:
    challenge = get_object_or_404(Challenge, pk=challenge_id)
    if action == "accept":
        game = run(
            request, lambda: services.accept_challenge(challenge=challenge, player=request.user)
        )
        if game is not None:
            return redirect("web:game", game_id=game.pk)
    elif action == "decline":
        if run(
            request, lambda: services.decline_challenge(challenge=challenge, player=request.user)
        ):
            messages.success(request, _("Challenge declined."))
    elif action == "cancel":
        if run(
            request, lambda: services.cancel_challenge(challenge=challenge, player=request.user)
        ):
            messages.success(request, _("Challenge cancelled."))
    else:
        raise Http404
    return redirect("web:lobby")


# --- Game, replay, analysis ---------------------------------------------------------------


def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(_games(), pk=game_id)
    texts = list(game.turns.order_by("ply").values_list("text", flat=True))
    requested = query_int(request, "ply")
    view_ply = len(texts) if requested is None else min(len(texts), requested)
    latest = view_ply == len(texts)
    position = None
    if game.start_position:
        if latest and game.position:
            position = Position.from_string(game.position)
        else:
            position = services.replay(game, texts[:view_ply])
    user = request.user
    color = game.color_of(user.pk) if user.is_authenticated else None
    if color is not None:  # a player looks at their game: its notifications are read
        signals.game_opened.send(sender=Game, game=game, user=user)
    can_play = (
        latest
        and color is not None
        and game.status == Game.Status.ACTIVE
        and game.to_move == color
        and position is not None
    )
    legal = sorted(str(t) for t in position.legal_turns) if can_play and position else []
    last_cells = turn_cells(texts[view_ply - 1]) if view_ply else []
    black_starts = bool(game.start_position) and game.start_position.split()[1:2] == ["b"]
    pie_step = game.pie_step()
    # This player's own pie step, if it is theirs now: the page shows its form.
    setup_stage = pie_step.action if pie_step is not None and color == pie_step.color else None
    setup_board = Position.pie_setup("A1", "A2").board if game.status == Game.Status.SETUP else None
    # Black sees the board from their side (row 7 at the bottom); the page can turn it.
    flipped = color == "black"
    svg = ""
    if position is not None:
        svg = draw(position, highlight=last_cells, interactive=can_play, flipped=flipped)
    elif setup_board is not None:
        empty = Position.from_string("- w 0-0")
        svg = draw(empty, interactive=setup_stage == "place", flipped=flipped)
    context = {
        "game": game,
        "white_name": player_name(game.white),
        "black_name": player_name(game.black),
        "position": position,
        "position_text": str(position) if position else "",
        "scores": position.scores if position else (0, 0),
        "svg": svg,
        "lines": turn_lines(texts, black_starts),
        "ply_count": len(texts),
        "view_ply": view_ply,
        "latest": latest,
        "color": color,
        "can_play": can_play,
        "legal": legal,
        "ply_hidden": [("ply", len(texts) + 1)],
        "setup_stage": setup_stage,
        "pie_step": pie_step,
        "pie_player": (
            player_name(game.white if pie_step.color == Color.WHITE else game.black)
            if pie_step is not None
            else ""
        ),
        "last_turn": texts[view_ply - 1] if view_ply else "",
        "mover": position.side_to_move.value if position else None,
        "flipped": flipped,
        "last_cells": last_cells,
    }
    from games.agreement_views import page_context  # that module imports this one

    context.update(page_context(game, user))
    return render(request, "games/game.html", context)


def turn_preview(request: HttpRequest) -> JsonResponse:
    """``?position=…&turn=…``: the board after a candidate turn, as the engine plays it
    (captures and starvation included), for the play panel's preview.  Nothing is stored."""
    position = parse_position(request.GET.get("position", ""))
    if position is None:
        return JsonResponse(
            {"code": "invalid_position", "detail": _("Not a position string.")}, status=400
        )
    text = request.GET.get("turn", "").strip()
    try:
        turn = position.push_text(text)
    except (InvalidTurnError, IllegalTurnError) as exc:
        detail = _("The turn %(turn)s is not allowed here: %(reason)s.") % {
            "turn": exc.text or "''",
            "reason": translate_reason(exc.reason),
        }
        return JsonResponse({"code": "illegal_turn", "detail": detail}, status=400)
    svg = draw(
        position,
        highlight=turn_cells(str(turn)),
        flipped=request.GET.get("flipped") == "1",
        css_class="board preview",
        title=_("Preview of the position after %(turn)s") % {"turn": str(turn)},
    )
    return JsonResponse(
        {
            "turn": str(turn),
            "position": str(position),
            "scores": list(position.scores),
            "svg": svg,
        }
    )


@login_required
@require_POST
def play(request: SignedInHttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    text = request.POST.get("turn", "").strip()
    try:
        ply = int(request.POST.get("ply", ""))
    except ValueError:
        # The page's form always sends it: only a hand-made request lands here.
        return HttpResponseBadRequest(
            _("The turn number (ply) must be a whole number."), content_type="text/plain"
        )
    done = run(
        request, lambda: services.play_turn(game=game, player=request.user, text=text, ply=ply)
    )
    if done is not None:
        messages.success(request, _("Turn %(turn)s sent.") % {"turn": str(Turn.parse(text))})
    return redirect("web:game", game_id=game.pk)


@login_required
@require_POST
def pie_setup(request: SignedInHttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    white, black = request.POST.get("white", "").strip(), request.POST.get("black", "").strip()
    run(
        request,
        lambda: services.setup_pie(game=game, player=request.user, white=white, black=black),
    )
    return redirect("web:game", game_id=game.pk)


@login_required
@require_POST
def pie_choose(request: SignedInHttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    color = request.POST.get("color", "")
    run(request, lambda: services.choose_color(game=game, player=request.user, color=color))
    return redirect("web:game", game_id=game.pk)


@login_required
def resign(request: SignedInHttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(_games(), pk=game_id)
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        if run(request, lambda: services.resign(game=game, player=request.user)):
            messages.success(request, _("You resigned."))
        return redirect("web:game", game_id=game.pk)
    return render(request, "games/resign.html", {"game": game})


def position_svg(request: HttpRequest) -> HttpResponse:
    """Any position as a standalone SVG file: ?position=… or ?game=ID&ply=N."""
    game_id = query_int(request, "game")
    position: Position | None
    if game_id is not None:
        game = get_object_or_404(Game, pk=game_id)
        if not game.start_position:
            raise Http404
        texts, view, position = game_turns_at(game, query_int(request, "ply"))
        highlight = turn_cells(texts[view - 1]) if view else []
    else:
        position = parse_position(request.GET.get("position", ""))
        highlight = []
        if position is None:
            return HttpResponseBadRequest(_("Not a position string."), content_type="text/plain")
    svg = '<?xml version="1.0" encoding="utf-8"?>\n' + draw(position, highlight=highlight)
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    if "download" in request.GET:
        response["Content-Disposition"] = 'attachment; filename="adaptoid-position.svg"'
    return response


def analysis(request: HttpRequest) -> HttpResponse:
    """A scratch board: start from any position, try turns; nothing is sent anywhere."""
    game_id = query_int(request, "game")
    if game_id is not None:
        game = get_object_or_404(Game, pk=game_id)
        if game.start_position:
            shown = str(game_turns_at(game, query_int(request, "ply"))[2])
            return redirect(f"{reverse('web:analysis')}?{urlencode({'position': shown})}")
    start_text = request.GET.get("position", "").strip()
    start = parse_position(start_text) if start_text else Position.standard()
    if start is None:
        messages.error(request, _("This is not a position string: %(text)s") % {"text": start_text})
        start = Position.standard()
    line = request.GET.get("line", "").split()
    if request.GET.get("turn", "").strip():
        line.append(request.GET["turn"].strip())
        query = urlencode({"position": str(start), "line": " ".join(line)})
        return redirect(f"{reverse('web:analysis')}?{query}")
    position = start.copy()
    played: list[str] = []
    for text in line:
        try:
            played.append(str(position.push_text(text)))
        except (InvalidTurnError, IllegalTurnError) as exc:
            messages.error(
                request,
                _("The turn %(turn)s is not allowed here: %(reason)s.")
                % {"turn": exc.text, "reason": translate_reason(exc.reason)},
            )
            break
    steps = [
        {
            "ply": i,
            "text": text,
            "url": "?" + urlencode({"position": str(start), "line": " ".join(played[:i])}),
        }
        for i, text in enumerate(played, 1)
    ]
    legal = sorted(str(t) for t in position.legal_turns)
    context = {
        "start": str(start),
        "position_text": str(position),
        "line": " ".join(played),
        "steps": steps,
        "svg": draw(position, highlight=turn_cells(played[-1]) if played else [], interactive=True),
        "legal": legal,
        "scores": position.scores,
        "mover": position.side_to_move.value,
        "result": position.result(),
        "play_hidden": [("position", str(start)), ("line", " ".join(played))],
        "back_url": "?" + urlencode({"position": str(start), "line": " ".join(played[:-1])}),
    }
    return render(request, "games/analysis.html", context)
