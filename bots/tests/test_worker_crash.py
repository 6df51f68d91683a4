"""A Celery worker killed with SIGKILL in the middle of a bot's move, then restarted.

Real worker processes (``celery -A bots.tests.celery_fault_app``: the project's
app with a pause injected at a chosen point of the bot-move task), a real Redis
broker and the tests' database.  Whatever the moment of the crash, the game ends
up with exactly one turn at the bot's ply and replays cleanly:

* the pool process dies while the bot thinks → the worker rejects the message
  (``task_reject_on_worker_lost``), it is delivered again and played once;
* the whole worker dies after the turn was committed but before the task was
  acknowledged (``acks_late``) → a restarted worker gets the message again once
  the visibility timeout has passed, and the guarded service stores nothing twice.

Redis only: the embedded file-system broker does not redeliver unacknowledged tasks.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from accounts.models import Profile
from config.celery import app as celery_app
from games import services
from games.models import Game, Turn
from games.tests.helpers import replays_to_its_cache

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

FAULT_APP = "bots.tests.celery_fault_app"
VISIBILITY_SECONDS = 3


@pytest.fixture
def on_redis() -> None:
    if not settings.CELERY_BROKER_URL.startswith("redis"):
        pytest.skip("redelivery after a crash needs the Redis broker (CI runs it)")


def _route_bot_tasks(routes: Any) -> None:
    celery_app.conf.task_routes = routes
    celery_app.amqp.flush_routes()
    celery_app.amqp.__dict__.pop("router", None)  # a cached_property: rebuilt from the routes


@pytest.fixture
def own_queue() -> Iterator[str]:
    """Route the bot tasks to a queue only this test's workers read."""
    queue = f"crash-{uuid.uuid4().hex[:8]}"
    previous = celery_app.conf.task_routes
    _route_bot_tasks({"bots.tasks.*": {"queue": queue}})
    try:
        yield queue
    finally:
        _route_bot_tasks(previous)


def _wait_for(condition: Callable[[], Any], what: str, seconds: float = 60) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _events(log: Path) -> list[tuple[str, int]]:
    if not log.exists():
        return []
    return [
        (event, int(pid))
        for event, pid in (line.split() for line in log.read_text().splitlines() if line)
    ]


def _game_against_a_bot(alice: Any) -> Game:
    bot = get_user_model().objects.create_user("crashbot")
    bot.set_unusable_password()
    bot.save()
    Profile.objects.filter(user=bot).update(is_bot=True, bot_engine="random", bot_level=1)
    return services.start_game(white=alice.user, black=bot)


def _bot_turns(game: Game) -> list[tuple[int, str]]:
    return list(Turn.objects.filter(game=game, ply=2).values_list("ply", "player__username"))


def test_pool_process_killed_while_the_bot_thinks(
    on_redis, celery_workers, own_queue, alice, tmp_path
) -> None:
    log = tmp_path / "fault.log"
    worker = celery_workers(
        app=FAULT_APP,
        pool="prefork",
        queues=own_queue,
        env={"ADAPTOID_FAULT": "think", "ADAPTOID_FAULT_LOG": str(log)},
    )
    game = _game_against_a_bot(alice)
    services.play_turn(game=game, player=alice.user, text="D2L", ply=1)  # queues bot_move(2)

    thinking = _wait_for(lambda: _events(log), "the bot to start thinking")
    assert thinking[0][0] == "think"
    os.kill(thinking[0][1], signal.SIGKILL)  # the pool process, in the middle of the task

    _wait_for(lambda: _bot_turns(game), "the redelivered bot move", seconds=90)
    time.sleep(1)  # room for a duplicate, were there one
    assert _bot_turns(game) == [(2, "crashbot")], worker.log()
    events = [event for event, _pid in _events(log)]
    assert events == ["think", "think", "stored"], events  # ran again, stored once
    assert "WorkerLostError" in worker.log() or "SIGKILL" in worker.log()
    game.refresh_from_db()
    assert game.ply == 2 and replays_to_its_cache(game.pk)


def test_whole_worker_killed_after_the_turn_was_stored(
    on_redis, celery_workers, own_queue, alice, tmp_path
) -> None:
    log = tmp_path / "fault.log"
    env = {
        "ADAPTOID_FAULT": "stored",
        "ADAPTOID_FAULT_LOG": str(log),
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_SECONDS),
    }
    first = celery_workers(app=FAULT_APP, queues=own_queue, env=env)
    game = _game_against_a_bot(alice)
    services.play_turn(game=game, player=alice.user, text="D2L", ply=1)

    try:
        _wait_for(lambda: [e for e, _pid in _events(log) if e == "stored"], "the bot turn")
    except AssertionError:
        raise AssertionError(first.log()) from None
    first.kill()  # SIGKILL: the task was never acknowledged
    assert _bot_turns(game) == [(2, "crashbot")]

    time.sleep(VISIBILITY_SECONDS + 1)
    second = celery_workers(app=FAULT_APP, queues=own_queue, purge=False, env=env)
    # The restarted worker is handed the unacknowledged message again and runs it...
    _wait_for(
        lambda: "nothing to do" in second.log() or "skipped" in second.log(),
        "the redelivered task",
        seconds=60,
    )
    # ...which finds the turn already stored and stores nothing.
    assert _bot_turns(game) == [(2, "crashbot")], second.log()
    assert Turn.objects.filter(game=game).count() == 2
    game.refresh_from_db()
    assert game.ply == 2 and replays_to_its_cache(game.pk)
