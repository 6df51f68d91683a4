"""Separate Celery queues (issue #14.4): a person's bot reply never waits behind bot
matches; every task goes to the queue of its kind (config/settings.py)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.conf import settings
from kombu import Queue

from bots import services as bots
from config.celery import app as celery_app
from core.testing import wait_for
from games import services
from games.models import Game

ROUTES = {
    "bots.tasks.bot_move": "interactive",
    "bots.tasks.bot_accept_challenge": "interactive",
    "games.tasks.expire_game": "interactive",
    "bots.tasks.bot_match_move": "matches",
    "bots.tasks.advance_bot_match": "matches",
    "bots.tasks.watch_bot_match": "matches",
    "tournaments.tasks.pair_round_task": "tournaments",
    "tournaments.tasks.tournament_heartbeat": "tournaments",
    "notifications.tasks.send_notification_email": "email",
    "notifications.tasks.send_digest": "email",
    "archive.tasks.run_import_job": "imports",
    "analysis.tasks.analyse_game": "analysis",
    "analysis.tasks.evaluate_position": "evaluations",
    "core.tasks.sweep_jobs": "maintenance",
    "analysis.tasks.index_games": "maintenance",
    "games.tasks.sweep_clocks": "maintenance",
    "games.tasks.verify_recent_games": "maintenance",
    "bots.tasks.sweep_bots": "maintenance",
    "ratings.tasks.rate_game": "maintenance",
    "stream.tasks.prune_events": "maintenance",
}


@pytest.mark.parametrize(("task", "queue"), ROUTES.items())
def test_each_task_goes_to_the_queue_of_its_kind(task: str, queue: str) -> None:
    routed = celery_app.amqp.router.route({}, task)["queue"].name
    assert routed == settings.TASK_QUEUE_NAMES[queue]


def test_every_registered_task_has_a_queue_that_a_worker_reads() -> None:
    celery_app.loader.import_default_modules()
    names = set(settings.TASK_QUEUE_NAMES.values())
    for task in celery_app.tasks:
        if not task.startswith("celery."):
            assert celery_app.amqp.router.route({}, task)["queue"].name in names, task


@pytest.mark.django_db
def test_a_bot_match_game_queues_its_moves_for_the_matches_queue(
    alice: Any, random_bot: Any, second_bot: Any, django_capture_on_commit_callbacks: Any
) -> None:
    import celery

    sent: list[str] = []
    original = celery.Task.apply_async

    def record(task: Any, *args: Any, **options: Any) -> None:
        sent.append(task.name)

    celery.Task.apply_async = record  # type: ignore[method-assign]
    try:
        with django_capture_on_commit_callbacks(execute=True):
            bots.create_bot_match(
                creator=alice.user, white="random-bot", black="random-bot-2", games=1,
                seconds_per_turn=0.1,
            )  # fmt: skip
        with django_capture_on_commit_callbacks(execute=True):
            services.start_game(white=alice.user, black=random_bot)  # the bot is Black
            game = services.start_game(white=random_bot, black=alice.user)
    finally:
        celery.Task.apply_async = original  # type: ignore[method-assign]
    assert sent.count("bots.tasks.bot_match_move") == 1  # the match game's first move
    assert sent.count("bots.tasks.bot_move") == 1 and game.ply == 0  # the person's game


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_bot_replies_within_seconds_while_bot_matches_fill_their_queue(
    celery_workers: Any, make_player: Any, random_bot: Any, settings: Any
) -> None:
    """Three bot matches of one user, many games at once, keep the matches worker busy
    with a queue of waiting moves; another user's bot still answers in a few seconds
    (it was 21-27 s with one queue for everything, #14.4)."""
    queues = settings.TASK_QUEUE_NAMES
    parallel = {"BOT_MATCH_PARALLEL_GAMES": "40"}
    settings.BOT_MATCH_PARALLEL_GAMES = 40  # here too: the matches' first games start here
    matches = celery_workers(queues=queues["matches"], env=parallel)
    interactive = celery_workers(queues=queues["interactive"], env=parallel)
    bots.ensure_builtin_bots()
    busy, waiting = make_player("busy"), make_player("waiting")
    started = [
        bots.create_bot_match(
            creator=busy.user,
            white="search-bot",
            black="search2-bot",
            games=40,
            seconds_per_turn=1.0,
        )
        for _ in range(3)
    ]
    wait_for(
        lambda: Game.objects.filter(bot_match_entry__isnull=False, ply__gte=1).exists(), matches
    )
    replies, backlog = [], []
    for _ in range(3):
        backlog.append(waiting_messages(queues["matches"]))
        game = services.start_game(white=waiting.user, black=random_bot)
        sent = time.monotonic()
        services.play_turn(game=game, player=waiting.user, text="D2L", ply=1)
        wait_for(lambda game=game: Game.objects.get(pk=game.pk).ply == 2, interactive, timeout=60)
        replies.append(time.monotonic() - sent)
    # A full load: the matches' queue had dozens of moves waiting all along.
    assert min(backlog) >= 30, backlog
    assert max(replies) < 3.0, (replies, backlog)
    for match in started:
        bots.stop_bot_match(match=match, user=busy.user)


def waiting_messages(queue: str) -> int:
    """Messages waiting in a queue of the broker (not yet handed to a worker)."""
    with celery_app.connection_for_write() as conn:
        return int(Queue(queue)(conn.default_channel).queue_declare(passive=True).message_count)
