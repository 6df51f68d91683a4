"""Bots and bot matches played out by a REAL Celery worker process."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from bots import services as bots
from bots.models import BotMatch
from bots.tasks import sweep_bots
from core.testing import wait_for
from games import services
from games.models import Challenge, Game

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
User = get_user_model()


def test_a_new_user_challenges_a_bot_and_gets_replies_from_the_worker(
    celery_worker_process: Any, alice: Any, random_bot: Any
) -> None:
    made = alice.client.post(
        "/api/v1/challenges", {"opponent": "random-bot", "color": "white"}, format="json"
    )
    assert made.status_code == 201
    # The request returned at once; the worker accepts the challenge for the bot.
    game_id = wait_for(
        lambda: (
            Challenge.objects.filter(pk=made.json()["id"], status="accepted")
            .values_list("game_id", flat=True)
            .first()
        ),
        celery_worker_process,
    )
    for ply in (1, 3, 5):
        legal = alice.client.get(f"/api/v1/games/{game_id}/legal").json()
        assert legal["ply"] == ply
        played = alice.client.post(
            f"/api/v1/games/{game_id}/turns", {"ply": ply, "turn": legal["turns"][0]}, format="json"
        )
        assert played.status_code == 201
        if played.json()["status"] == "finished":
            return
        # The bot's reply arrives without anybody waiting on it.
        wait_for(
            lambda ply=ply: Game.objects.get(pk=game_id).ply > ply or None,
            celery_worker_process,
        )
        assert Game.objects.get(pk=game_id).turns.get(ply=ply + 1).player == random_bot


def test_a_bot_match_is_played_to_the_end_by_the_worker(
    celery_worker_process: Any, alice: Any, random_bot: Any, second_bot: Any
) -> None:
    answer = alice.client.post(
        "/api/v1/bot-matches",
        {"white": "random-bot", "black": "random-bot-2", "games": 4, "seconds_per_turn": 0.01},
        format="json",
    )
    assert answer.status_code == 201
    match_id = answer.json()["id"]
    wait_for(
        lambda: BotMatch.objects.get(pk=match_id).status == "finished",
        celery_worker_process,
        timeout=180,
    )
    body = alice.client.get(f"/api/v1/bot-matches/{match_id}").json()
    assert body["played"] == body["total"] == 4
    white, black = (float(part) for part in body["score"].split("-"))
    assert white + black == 4.0
    assert [game["status"] for game in body["game_list"]] == ["finished"] * 4
    # Every game is a normal finished game of the archive, unrated, fully replayable.
    for entry in body["game_list"]:
        game = Game.objects.get(pk=entry["id"])
        assert not game.rated and game.result in ("1-0", "0-1", "1/2-1/2")
        assert str(services.replay(game)) == game.position


def test_the_sweep_requeues_a_bot_game_whose_message_was_lost(
    celery_worker_process: Any, alice: Any, random_bot: Any
) -> None:
    # A game row written without the services (so no task was ever queued), bot to move,
    # untouched for ten minutes: what a worker dying mid-task leaves behind.
    start = "D2W00,D6B00 w 0-0"
    game = Game.objects.create(
        white=random_bot, black=alice.user, start_position=start, position=start
    )
    Game.objects.filter(pk=game.pk).update(updated=timezone.now() - timezone.timedelta(minutes=10))
    stuck_challenge = Challenge.objects.create(created_by=alice.user, opponent=random_bot)
    Challenge.objects.filter(pk=stuck_challenge.pk).update(
        created=timezone.now() - timezone.timedelta(minutes=10)
    )

    summary = sweep_bots.delay().get(timeout=30)

    assert summary["games"] == 1 and summary["challenges"] == 1
    wait_for(lambda: Game.objects.get(pk=game.pk).ply == 1, celery_worker_process)
    wait_for(
        lambda: Challenge.objects.get(pk=stuck_challenge.pk).status == "accepted",
        celery_worker_process,
    )


def test_a_bot_match_whose_messages_were_lost_is_finished_by_its_watch_without_beat(
    celery_worker_process: Any,
    alice: Any,
    random_bot: Any,
    second_bot: Any,
    settings: Any,
    monkeypatch: Any,
) -> None:
    # Every game's first bot move is dropped, as a broker losing them (or a worker dying
    # between its commit and its publish) would: no message of any game is left queued.
    # (Only in this process: the worker's own code, the watch included, is untouched.)
    from bots import tasks as bot_tasks

    monkeypatch.setattr(bot_tasks.bot_match_move, "delay", lambda *args: None)
    settings.BOT_MATCH_WATCH_SECONDS = 2
    match = bots.create_bot_match(
        creator=alice.user, white="random-bot", black="random-bot-2", games=2, seconds_per_turn=0.01
    )
    assert not Game.objects.filter(bot_match_entry__match=match, ply__gt=0).exists()
    # Beat does not run here: the match's own watch queues the waiting games again.
    wait_for(
        lambda: BotMatch.objects.get(pk=match.pk).status == "finished",
        celery_worker_process,
        timeout=120,
    )
    assert "waits for ply 1" in celery_worker_process.log()
    for game in Game.objects.filter(bot_match_entry__match=match):
        assert game.status == "finished" and str(services.replay(game)) == game.position


@pytest.mark.slow
def test_a_twenty_game_bot_match_shows_its_progress_while_it_runs(
    celery_worker_process: Any, alice: Any, random_bot: Any, second_bot: Any
) -> None:
    answer = alice.client.post(
        "/api/v1/bot-matches",
        {"white": "random-bot", "black": "random-bot-2", "games": 20, "seconds_per_turn": 0.01},
        format="json",
    )
    assert answer.status_code == 201
    url = f"/api/v1/bot-matches/{answer.json()['id']}"
    seen: list[int] = []
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        body = alice.client.get(url).json()
        if not seen or body["played"] != seen[-1]:
            seen.append(body["played"])
        if body["status"] == "finished":
            break
        time.sleep(0.5)
    assert body["status"] == "finished", celery_worker_process.log()[-3000:]
    # The progress went up step by step (visible on the page), never backwards.
    assert seen == sorted(seen) and seen[-1] == 20 and len(seen) > 3
    assert [game["number"] for game in body["game_list"]] == list(range(1, 21))
    white, black = (float(part) for part in body["score"].split("-"))
    assert white + black == 20.0 == body["white_points"] + body["black_points"]


def test_a_bot_does_its_pie_opening_steps_through_the_worker(
    celery_worker_process: Any, alice: Any, random_bot: Any
) -> None:
    # As a tournament would: the game is created directly, the bot places the adaptoids…
    placing = services.start_game(white=random_bot, black=alice.user, opening="pie")
    wait_for(lambda: Game.objects.get(pk=placing.pk).start_position, celery_worker_process)
    # …and where alice placed them, the bot chooses White and then plays its first turn.
    choosing = services.start_game(white=alice.user, black=random_bot, opening="pie")
    services.setup_pie(game=choosing, player=alice.user, white="C3", black="E5")
    wait_for(lambda: Game.objects.get(pk=choosing.pk).ply == 1, celery_worker_process)
    game = Game.objects.get(pk=choosing.pk)
    assert game.white == random_bot and game.turns.get(ply=1).player == random_bot
