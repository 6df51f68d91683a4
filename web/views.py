"""Home, rules, the language switch, player and archive pages (games: games.views,
accounts: accounts.views)."""

from __future__ import annotations

import hashlib
from typing import Any, TypeVar
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import (
    HttpRequest,
    HttpResponse,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts.language import SESSION_KEY
from accounts.models import Profile
from core.requests import SignedInHttpRequest
from games.awaiting import action_needed, awaiting_count, games_awaiting, running_games
from games.models import Challenge, Game
from games.views import game_turns_at, player_name, run  # noqa: F401  (shared page helpers)
from notifications.models import Notification
from notifications.services import unread_count
from tournaments.selectors import current_tournaments

User = get_user_model()
T = TypeVar("T")


# --- Home, rules, language ---------------------------------------------------------------


def _games() -> Any:
    return Game.objects.select_related("white__profile", "black__profile")


def home(request: HttpRequest) -> HttpResponse:
    """A player's day: games waiting for them (nearest deadline first), challenges to
    answer, games waiting for the opponents, running tournaments, recent results."""
    your_turn: list[Game] = []
    waiting: list[Game] = []
    incoming: list[Challenge] = []
    if request.user.is_authenticated:
        your_turn = games_awaiting(request.user)
        waiting_for_me = {game.pk for game in your_turn}
        mine = running_games(request.user).select_related("white__profile", "black__profile")
        waiting = [g for g in mine.order_by("deadline", "-id")[:100] if g.pk not in waiting_for_me]
        incoming = list(
            Challenge.objects.filter(opponent=request.user, status=Challenge.Status.OPEN)
            .select_related("created_by", "opponent")
            .order_by("-created")[:20]
        )
    recent = _games().filter(status=Game.Status.FINISHED).order_by("-finished", "-id")[:10]
    context = {
        "live_version": status_version(request.user) if request.user.is_authenticated else "",
        "your_turn": your_turn,
        "incoming": incoming,
        "waiting": waiting,
        "recent": recent,
        "tournaments": current_tournaments(),
    }
    return render(request, "web/home.html", context)


def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "web/rules.html")


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Switch the language: in the session, the profile (remembered) and the cookie."""
    language = request.POST.get("language", "")
    if language in {code for code, _name in settings.LANGUAGES}:
        request.session[SESSION_KEY] = language
        if request.user.is_authenticated:
            Profile.objects.filter(user=request.user).update(language=language)
    return django_set_language(request)


# --- Players ------------------------------------------------------------------------------


def player_page(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User.objects.select_related("profile"), username=username)
    games = _games().filter(Q(white=player) | Q(black=player))
    finished = games.filter(status=Game.Status.FINISHED)
    # Results by colour: two grouped queries on the (white, …) and (black, …) indexes.
    results: dict[str, dict[str, int]] = {"white": {}, "black": {}}
    for color in results:
        rows = Game.objects.filter(**{color: player}, status=Game.Status.FINISHED)
        results[color] = dict(rows.values_list("result").annotate(n=Count("id")).order_by())
    wins = results["white"].get(Game.Result.WHITE_WINS, 0) + results["black"].get(
        Game.Result.BLACK_WINS, 0
    )
    draws = sum(by_result.get(Game.Result.DRAW, 0) for by_result in results.values())
    total = sum(sum(by_result.values()) for by_result in results.values())
    context = {
        "player": player,
        "name": player_name(player),
        "running": games.exclude(status=Game.Status.FINISHED).order_by("-id")[:50],
        "recent": finished.order_by("-finished", "-id")[:20],
        "wins": wins,
        "draws": draws,
        "losses": total - wins - draws,
        "total": total,
        "archive_url": reverse("web:archive") + "?" + urlencode({"player": player.username}),
    }
    return render(request, "web/player.html", context)


# --- Games waiting for the player, and the live status behind the header -------------------


@login_required
def awaiting_page(request: SignedInHttpRequest) -> HttpResponse:
    """The games where the user must act, most urgent deadline first."""
    rows = [
        {
            "game": game,
            "action": action_needed(game),
            "opponent": player_name(game.black if game.white_id == request.user.pk else game.white),
        }
        for game in games_awaiting(request.user)
    ]
    return render(
        request, "web/awaiting.html", {"rows": rows, "live_version": status_version(request.user)}
    )


@login_required
def status(request: SignedInHttpRequest) -> JsonResponse:
    """What the header and the home page show, for the pages' live updates (web/live.js):
    the counts, and a ``version`` that changes whenever a game, a challenge or a
    notification of the user changes (the page then fetches its fresh parts)."""
    user = request.user
    return JsonResponse(
        {
            "awaiting": awaiting_count(user),
            "unread": unread_count(user),
            "version": status_version(user),
        }
    )


def status_version(user: Any) -> str:
    """Changes whenever a running game, an open challenge or a notification of `user`
    does; the live pages carry the one they were drawn with (``data-version``)."""
    games = sorted(running_games(user).values_list("id", "ply", "status"))
    challenges = sorted(
        Challenge.objects.filter(
            Q(opponent=user) | Q(created_by=user), status=Challenge.Status.OPEN
        ).values_list("id", flat=True)
    )
    latest = Notification.objects.filter(user=user).order_by("-id").values_list("id", flat=True)
    fingerprint = repr((games, challenges, latest.first()))
    return hashlib.sha256(fingerprint.encode()).hexdigest()[:16]
