"""The game page's conditional turns (games.conditional): a board from the game's
current position on which the waiting player clicks a line, the tree of their lines,
and a button that deletes them.  Like the analysis board, it needs no script of its
own: web/play.js assembles each turn from clicks."""

from __future__ import annotations

import math
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.throttling import ConditionalThrottle
from core.requests import SignedInHttpRequest
from engine import IllegalTurnError, InvalidTurnError
from games import conditional, errors, services
from games.board_svg import turn_cells
from games.engine_messages import translate_reason
from games.models import Game
from games.views import draw, player_name, run


def _page(game: Game, line: list[str]) -> str:
    url = reverse("web:conditional", kwargs={"game_id": game.pk})
    return f"{url}?{urlencode({'line': ' '.join(line)})}" if line else url


@login_required
def conditional_page(request: SignedInHttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("white", "black"), pk=game_id)
    if request.method == "POST":
        return _change(request, game)
    line = request.GET.get("line", "").split()
    if request.GET.get("turn", "").strip():  # the play panel's form: one more turn
        return redirect(_page(game, [*line, request.GET["turn"].strip()]))
    color = game.color_of(request.user.pk)
    waiting = game.status == Game.Status.ACTIVE and color is not None and game.to_move != color
    if not waiting:
        messages.error(request, str(errors.NotWaiting.default_message))
        return redirect("web:game", game_id=game.pk)
    position = services.replay(game)
    played: list[str] = []
    for text in line:
        if position.outcome() is not None:
            break
        try:
            played.append(str(position.push_text(text)))
        except (InvalidTurnError, IllegalTurnError) as exc:
            messages.error(
                request,
                _("The turn %(turn)s is not allowed here: %(reason)s.")
                % {"turn": exc.text, "reason": translate_reason(exc.reason)},
            )
            break
    over = position.outcome() is not None
    context = {
        "game": game,
        "white_name": player_name(game.white),
        "black_name": player_name(game.black),
        "svg": draw(
            position, highlight=turn_cells(played[-1]) if played else [], interactive=not over
        ),
        "legal": [] if over else sorted(str(t) for t in position.legal_turns),
        "line": played,
        "line_text": " ".join(played),
        "steps": [
            {"ply": game.ply + i, "text": text, "url": _page(game, played[:i])}
            for i, text in enumerate(played, 1)
        ],
        "back_url": _page(game, played[:-1]),
        # The opponent's turn on even steps (0, 2…), the player's reply on odd ones.
        "reply_next": len(played) % 2 == 1,
        "complete": len(played) >= 2 and len(played) % 2 == 0,
        "over": over,
        "tree": conditional.tree_of(game=game, player=request.user),
        "play_hidden": [("line", " ".join(played))],
    }
    return render(request, "games/conditional.html", context)


def _change(request: SignedInHttpRequest, game: Game) -> HttpResponse:
    """POST: `add` the posted line to the player's lines (merged), or `delete` them all."""
    line = request.POST.get("line", "").split()
    throttle = ConditionalThrottle()
    if (
        request.POST.get("action") != "delete"
        # A page's request: the throttle reads only its method and user.
        and not throttle.allow_request(request, None)  # type: ignore[arg-type]
    ):
        messages.error(
            request,
            _("You are changing your conditional turns too fast: try again in %(seconds)s s.")
            % {"seconds": math.ceil(throttle.wait() or 1)},
        )
        return redirect(_page(game, line))
    if request.POST.get("action") == "delete":

        def delete() -> bool:
            conditional.delete_lines(game=game, player=request.user)
            return True

        deleted = run(request, delete)
        if deleted:
            messages.success(request, _("Your conditional turns are deleted."))
        return redirect("web:game", game_id=game.pk)
    current = conditional.lines_of(game=game, player=request.user)
    lines = [*(current.lines if current else []), line]
    done = run(
        request,
        lambda: conditional.set_lines(
            game=game, player=request.user, ply=game.ply + 1, lines=lines
        ),
    )
    if done is None:
        return redirect(_page(game, line))
    messages.success(request, _("Line added: %(line)s.") % {"line": " ".join(line)})
    return redirect(_page(game, []))
