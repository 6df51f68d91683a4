"""The timeout path on a real Celery worker process (Redis broker in CI).

The sweeper task runs in the worker, ends the game on time, and the game-over
emails it queues (after commit) are sent by the same worker: the console
backend prints them in the worker's output.
"""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from accounts.models import Profile
from games import services as games
from games import timekeeping
from games.models import Game
from games.tasks import sweep_clocks
from notifications.models import EmailState, Notification

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_worker_sweeps_an_expired_clock_and_emails_both_players(
    celery_worker_process, alice, bob
) -> None:
    User = get_user_model()
    User.objects.filter(pk=alice.user.pk).update(email="alice@example.org")
    User.objects.filter(pk=bob.user.pk).update(email="bob@example.org")
    Profile.objects.filter(user=bob.user).update(auto_vacation=False, language="ru")
    game = games.start_game(white=alice.user, black=bob.user)
    game, _ = games.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    game, _ = games.play_turn(game=game, player=bob.user, text="D6L", ply=2)
    game, _ = games.play_turn(game=game, player=alice.user, text="D2P", ply=3)
    timekeeping.fast_forward(game=game)  # Bob's clock is out

    summary = sweep_clocks.delay().get(timeout=60)
    assert summary["games"] == {str(game.pk): "timeout"}, summary
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == ("finished", "1-0", "timeout")

    # The emails were queued after the sweep's commit and sent by the worker, once each.
    over = Notification.objects.filter(game=game, kind="game_over")
    deadline = time.monotonic() + 60
    while over.exclude(email_state=EmailState.SENT).exists() and time.monotonic() < deadline:
        time.sleep(0.3)
    assert sorted(over.values_list("email_state", flat=True)) == ["sent", "sent"]
    if settings.CELERY_BROKER_URL.startswith("redis"):
        # (The embedded file broker under var/ may be shared with another test run's
        # worker, which could take the message; with Redis this worker is the only one.)
        log = celery_worker_process.log()
        assert "To: bob@example.org" in log and "Content-Language: ru" in log, log[-3000:]
        assert "/notifications/unsubscribe/" in log
    # A second sweep finds nothing to do.
    assert sweep_clocks.delay().get(timeout=60)["games"] == {}
    assert Game.objects.filter(pk=game.pk, termination="timeout").count() == 1
