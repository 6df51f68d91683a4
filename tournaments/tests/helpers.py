"""Small builders for tournament tests: organisers, players, finishing games."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from games import services as game_services
from games.models import Game
from tournaments import services
from tournaments.models import Pairing, Tournament

User = get_user_model()


def make_user(name: str, *, rating: float = 1500.0, bot: bool = False, organiser: bool = False):
    user = User.objects.create_user(username=name, password="correct-horse-battery-staple")
    user.profile.rating = rating
    user.profile.is_bot = bot
    user.profile.save()
    if organiser:
        user.user_permissions.add(Permission.objects.get(codename="organise_tournament"))
        user = User.objects.get(pk=user.pk)  # fresh permission cache
    return user


def make_tournament(organiser: Any, players: list[Any], **options: Any) -> Tournament:
    options.setdefault("name", "Test Cup")
    options.setdefault("format", "swiss")
    if options["format"] == "swiss":
        options.setdefault("rounds", 3)
    tournament = services.create_tournament(organiser=organiser, **options)
    for user in players:
        services.join(tournament=tournament, user=user)
    return tournament


def open_games(tournament: Tournament) -> list[Game]:
    return list(
        Game.objects.filter(tournament_pairing__round__tournament=tournament)
        .exclude(status=Game.Status.FINISHED)
        .order_by("tournament_pairing__round__number", "tournament_pairing__board")
    )


def finish(game: Game, result: str) -> None:
    """White wins (1-0) / Black wins (0-1) by resignation, or an agreed draw."""
    if result == "1-0":
        game_services.resign(game=game, player=game.black)
    elif result == "0-1":
        game_services.resign(game=game, player=game.white)
    else:
        game_services.adjudicate(game=game, result=result, termination="agreement")


def pairs(tournament: Tournament, number: int) -> list[tuple[int, int]]:
    """(white seed, black seed or 0) of a round, by board."""
    return [
        (p.white.seed, p.black.seed if p.black else 0)
        for p in Pairing.objects.filter(round__tournament=tournament, round__number=number)
        .select_related("white", "black")
        .order_by("board")
    ]


@contextlib.contextmanager
def jobs_run_here() -> Iterator[None]:
    """Tasks queued inside the block run in this process at its commit (eagerly: the
    test plays the worker), as a worker would run them after the request."""
    from celery import current_app
    from django.test import TestCase

    eager = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = True
    try:
        with TestCase.captureOnCommitCallbacks(execute=True):
            yield
    finally:
        current_app.conf.task_always_eager = eager


def start(organiser: Any, url: str) -> Any:
    """POST {url}/start as the organiser (the answer says "starting"); the start job it
    queues runs here, after the answer."""
    with jobs_run_here():
        return organiser.client.post(f"{url}/start")
