"""Celery tasks for built-in bots, bot matches and the periodic sweep.

Queued by the receivers in bots.receivers (after the commit: core.tasks)
(after commit).  Each takes ids, is idempotent and has a time limit: a
redelivered message (acks_late, a worker killed mid-task) does no harm, and the
sweep re-queues whatever a lost message left waiting.
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from celery import Task, shared_task
from django.db import OperationalError
from django.db.models import Q
from django.utils import timezone

logger = logging.getLogger(__name__)

_RETRY: dict[str, Any] = {
    "bind": True,
    "acks_late": True,
    # Database hiccups (a locked SQLite file, a restarted PostgreSQL) are retried.
    "autoretry_for": (OperationalError, ConnectionError),
    "max_retries": 3,
    "retry_backoff": True,
}


@shared_task(time_limit=90, soft_time_limit=75, **_RETRY)
def bot_move(self: Task, game_id: int, ply: int) -> str:
    """A built-in bot plays turn `ply` of game `game_id` (0: its pie-opening step).

    Thinking time is at most BOT_MAX_SECONDS_PER_TURN (10 s), well inside the limit.
    A person waits for it: the ``interactive`` queue (config/settings.py).
    """
    return _play(game_id, ply)


@shared_task(time_limit=90, soft_time_limit=75, **_RETRY)
def bot_match_move(self: Task, game_id: int, ply: int) -> str:
    """``bot_move`` in a bot match's game: the same work under its own name, which the
    routes send to the ``matches`` queue, so a match never delays a person's bot reply."""
    return _play(game_id, ply)


def _play(game_id: int, ply: int) -> str:
    from bots.services import play_bot_turn

    outcome = play_bot_turn(game_id=game_id, ply=ply)
    logger.info("bot move game=%s ply=%s: %s", game_id, ply, outcome)
    return outcome


def queue_bot_move(game_id: int, ply: int) -> None:
    """Queue a bot's turn after the commit: ``bot_match_move`` in a bot match's game, else
    ``bot_move``.  Chosen at the commit: a match's new game is started (and its first
    move asked for) before its entry in the match is written."""
    from django.db import transaction

    from bots.models import BotMatchGame

    def send() -> None:
        in_match = BotMatchGame.objects.filter(game_id=game_id).exists()
        (bot_match_move if in_match else bot_move).delay(game_id, ply)

    transaction.on_commit(send, robust=True)


@shared_task(time_limit=30, soft_time_limit=25, **_RETRY)
def bot_accept_challenge(self: Task, challenge_id: int) -> int | None:
    """A built-in bot accepts the challenge addressed to it; returns the game id."""
    from bots.services import accept_bot_challenge

    game = accept_bot_challenge(challenge_id=challenge_id)
    return game.pk if game else None


@shared_task(time_limit=60, soft_time_limit=50, **_RETRY)
def advance_bot_match(self: Task, match_id: int) -> str | None:
    """Start a bot match's next games, or mark it finished."""
    from bots import services

    match = services.advance_bot_match(match_id=match_id)
    return match.status if match else None


@shared_task(time_limit=60, soft_time_limit=50, **_RETRY)
def watch_bot_match(self: Task, match_id: int, seconds: float) -> str | None:
    """Every `seconds` while a bot match runs: advance it, queue again its quiet games.

    The safety net of the chain of messages a match is made of (see
    bots.services.watch_bot_match_later): without beat, a lost message, a worker
    restart or a stale redelivery would otherwise stop the match for good.
    Re-queued moves are harmless if a move was in flight after all (stale ply).
    """
    from bots import services
    from bots.models import BotMatch

    match = services.advance_bot_match(match_id=match_id)
    if match is None or match.status != BotMatch.Status.RUNNING:
        return match.status if match else None
    for game_id, ply in services.waiting_bot_moves(match_id=match_id, quiet_seconds=seconds):
        logger.warning("watch_bot_match %s: game %s waits for ply %s", match_id, game_id, ply)
        bot_match_move.delay(game_id, ply)
    watch_bot_match.apply_async((match_id, seconds), countdown=seconds)
    return match.status


@shared_task(bind=True, acks_late=True, time_limit=120, soft_time_limit=100, max_retries=0)
def sweep_bots(self: Task) -> dict[str, int]:
    """Beat task: queue again what lost messages or dead workers left waiting.

    * games where a built-in bot must act and nothing happened for
      BOT_SWEEP_AFTER_SECONDS (a task in flight would have saved the game since);
    * open challenges to built-in bots older than that;
    * running bot matches (advance is a no-op when nothing is due).

    Old stream events are pruned by the stream app's own beat task (stream.tasks).
    """
    from accounts.models import Profile
    from bots.models import BotMatch
    from bots.services import bot_to_act, setting
    from games.models import Challenge, Game

    now = timezone.now()
    quiet = now - datetime.timedelta(seconds=setting("BOT_SWEEP_AFTER_SECONDS", 60))
    engine_bots = list(
        Profile.objects.filter(is_bot=True).exclude(bot_engine="").values_list("user_id", flat=True)
    )
    waiting = (
        Game.objects.filter(updated__lt=quiet)
        .filter(Q(white_id__in=engine_bots) | Q(black_id__in=engine_bots))
        .filter(
            # RULES.md §7: " w " / " b " is the side to move in a position string.
            Q(status=Game.Status.ACTIVE, white_id__in=engine_bots, position__contains=" w ")
            | Q(status=Game.Status.ACTIVE, black_id__in=engine_bots, position__contains=" b ")
            | Q(status=Game.Status.SETUP)
        )
        .only("id", "status", "position", "ply", "start_position", "white_id", "black_id")
    )
    games = 0
    for game in waiting.iterator():
        acting = bot_to_act(game)
        if acting is not None:
            queue_bot_move(game.pk, acting[1])
            games += 1
    challenges = 0
    for challenge_id in Challenge.objects.filter(
        status=Challenge.Status.OPEN, opponent_id__in=engine_bots, created__lt=quiet
    ).values_list("id", flat=True):
        bot_accept_challenge.delay(challenge_id)
        challenges += 1
    matches = 0
    for match_id in BotMatch.objects.filter(status=BotMatch.Status.RUNNING).values_list(
        "id", flat=True
    ):
        advance_bot_match.delay(match_id)
        matches += 1
    summary = {"games": games, "challenges": challenges, "matches": matches}
    if games or challenges:
        logger.warning("sweep_bots re-queued %s", summary)
    return summary
