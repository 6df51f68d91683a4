"""docs/example_bot.py plays a full game over HTTP against a built-in bot.

Everything is real: the example runs as its own process against pytest-django's
live server (REST API + event stream), and the built-in bot's replies come from
a real Celery worker.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from accounts.models import Profile
from bots import services as bots
from games import services
from games.models import Game

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "example_bot.py"


def test_example_bot_plays_a_full_game_against_the_random_bot(
    celery_worker_process: Any, live_server: Any, make_player: Any, settings: Any
) -> None:
    settings.STREAM_KEEPALIVE_SECONDS = 1
    settings.STREAM_MAX_SECONDS = 20  # the example reconnects when a stream ends
    random_bot = bots.ensure_builtin_bots()[0]
    me = make_player("example-bot")

    done = subprocess.run(
        [
            sys.executable, str(EXAMPLE), "--server", live_server.url, "--token", me.token,
            "--become-bot", "--challenge", "random-bot", "--games", "1",
        ],
        capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip

    assert done.returncode == 0, done.stdout + done.stderr + celery_worker_process.log()[-3000:]
    assert Profile.objects.get(user=me.user).is_bot
    game = Game.objects.get()
    assert {game.white, game.black} == {me.user, random_bot}
    assert game.status == "finished" and game.result in ("1-0", "0-1", "1/2-1/2")
    assert f"game {game.pk} over: {game.result}" in done.stdout
    # Both sides played through play_turn: alternating players, a replayable record.
    players = list(game.turns.order_by("ply").values_list("player_id", flat=True))
    assert players[0::2] == [game.white_id] * len(players[0::2])
    assert players[1::2] == [game.black_id] * len(players[1::2])
    assert str(services.replay(game)) == game.position
