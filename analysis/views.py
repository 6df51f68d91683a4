"""Pages: the opening explorer, and the game page's "Analyse" button (its panel is the
{% game_analysis %} tag, included by games/game.html)."""

from __future__ import annotations

import math
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from analysis import errors, explorer, services
from analysis.api import ExplorerFilterSerializer
from analysis.throttling import AnalysisThrottle, ExplorerThrottle
from core.errors import DomainError
from engine import IllegalTurnError, InvalidTurnError, Position
from games.models import Game
from games.views import draw, player_name, turn_cells

FILTERS = ("player", "color", "rated", "imported")


def _filters(request: HttpRequest) -> tuple[explorer.ExplorerFilters, dict[str, str]]:
    """The explorer filters of the query string (bad ones dropped, with a message)."""
    given = {name: request.GET[name] for name in FILTERS if request.GET.get(name, "").strip()}
    params = ExplorerFilterSerializer(data=given)
    if not params.is_valid():
        messages.error(request, _("These filters were ignored: %(names)s.") % {
            "names": ", ".join(sorted(params.errors))})  # fmt: skip
        return explorer.ExplorerFilters(), {}
    data = params.validated_data
    filters = explorer.ExplorerFilters(
        player_id=data.get("player"),
        color=data.get("color"),
        rated=data.get("rated"),
        imported=data.get("imported", True),
    )
    return filters, given


def explorer_page(request: HttpRequest) -> HttpResponse:
    """The board at a position, the turns the archive's games played from it, and those games."""
    throttle = ExplorerThrottle()  # one allowance with the API's explorer
    # A page's request: the throttle reads only its method, user and address.
    if not throttle.allow_request(request, None):  # type: ignore[arg-type]
        seconds = math.ceil(throttle.wait() or 1)
        message = _("You are opening explorer pages too fast: try again in %(seconds)s s.") % {
            "seconds": seconds
        }
        refusal = render(request, "429.html", {"message": message}, status=429)
        refusal["Retry-After"] = str(seconds)
        return refusal
    text = request.GET.get("position", "").strip()
    position = Position.standard()
    if text:
        try:
            position = services.parse_position(text)
        except errors.InvalidPosition as exc:
            messages.error(request, str(exc.message))
    line = [turn for turn in request.GET.get("line", "").split() if len(turn) <= 64][:200]
    filters, given = _filters(request)
    answer = explorer.explore(position, filters)
    turns = []
    for row in answer["turns"]:
        after = position.copy()
        try:
            after.push_text(row["turn"])
        except (InvalidTurnError, IllegalTurnError):  # stored turns are legal (a key collision)
            continue
        query = {"position": str(after), "line": " ".join([*line, row["turn"]]), **given}
        share = max(1, row["games"])
        turns.append(
            {
                **row,
                "url": "?" + urlencode(query),
                "white_pct": round(100 * row["white"] / share),
                "draws_pct": round(100 * row["draws"] / share),
                "black_pct": round(100 * row["black"] / share),
                # The bar's segments (SVG attributes: the policy allows no inline style).
                "draws_x": 100 * row["white"] / share,
                "black_x": 100 * (row["white"] + row["draws"]) / share,
            }
        )
    found = explorer.games_at(position, filters)
    games = Game.objects.select_related("white__profile", "black__profile").in_bulk(
        [game_id for game_id, _ply in found]
    )
    listed = [
        {
            "game": games[game_id],
            "white": player_name(games[game_id].white),
            "black": player_name(games[game_id].black),
            "url": reverse("web:game", args=[game_id]) + f"?ply={ply}",
        }
        for game_id, ply in found
        if game_id in games
    ]
    crumbs = []
    walk = Position.standard()
    for i, turn in enumerate(line):
        try:
            walk.push_text(turn)
        except (InvalidTurnError, IllegalTurnError):
            break
        query = {"position": str(walk), "line": " ".join(line[: i + 1]), **given}
        crumbs.append({"turn": turn, "url": "?" + urlencode(query)})
    context: dict[str, Any] = {
        "position_text": answer["position"],
        "total": answer["games"],
        "turns": turns,
        "games": listed,
        "crumbs": crumbs,
        "given": given,
        "svg": draw(position, highlight=turn_cells(line[-1]) if line else []),
        "mover": position.side_to_move.value,
        "start_url": "?" + urlencode(given),
    }
    return render(request, "analysis/explorer.html", context)


@login_required
@require_POST
def analyse(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game page's "Analyse" button (the same rules as the API's POST)."""
    game = get_object_or_404(Game, pk=game_id)
    is_player = game.color_of(request.user.pk) is not None
    throttle = AnalysisThrottle()
    if (
        not is_player
        and not hasattr(game, "analysis")
        # A page's request: the throttle reads only its user and address.
        and not throttle.allow_request(request, None)  # type: ignore[arg-type]
    ):
        messages.error(request, _("Too many analyses asked for: try again later."))
        return redirect("web:game", game_id=game.pk)
    try:
        services.request_analysis(game=game, user=request.user)
    except DomainError as exc:
        messages.error(request, str(exc.message))
    else:
        messages.success(request, _("The analysis is under way."))
    return redirect(reverse("web:game", args=[game.pk]) + "#analysis")
