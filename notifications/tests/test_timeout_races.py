"""Timeouts under concurrency, against PostgreSQL with real threads (one connection each).

* A turn racing its own deadline: either it is stored before the deadline and the
  game goes on, or it is refused and the game is lost on time — never both.
* Two sweepers (two beat schedulers) at once: every expired game ends exactly once,
  and each low clock is warned once (games.timekeeping; here for its notifications).
"""

from __future__ import annotations

import datetime as dt
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections
from django.utils import timezone

from accounts.models import Profile
from clocks.errors import TimeExpired
from games import errors, signals
from games import services as games
from games import timekeeping as services
from games.models import Game, Turn
from games.timekeeping import Expiry
from notifications.models import Notification

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def on_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row-lock races are tested against PostgreSQL (CI); SQLite has one writer")


def run_together(*jobs: Callable[[], Any]) -> list[Any]:
    """Start the jobs at the same moment, each in its own thread and database connection."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def run(index: int, job: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = job()
        except Exception as exc:  # noqa: BLE001 - handed back to the test, which asserts on it
            results[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def game_after_two_turns(alice: Any, bob: Any) -> Game:
    game = games.start_game(white=alice.user, black=bob.user)
    game, _ = games.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    game, _ = games.play_turn(game=game, player=bob.user, text="D6L", ply=2)
    return game


def test_a_turn_racing_its_deadline_is_played_or_timed_out_never_both(alice, bob) -> None:
    Profile.objects.update(auto_vacation=False)
    rng = random.Random(7)
    outcomes = Counter()
    for _round in range(12):
        game = game_after_two_turns(alice, bob)
        deadline = timezone.now() + dt.timedelta(milliseconds=300)
        Game.objects.filter(pk=game.pk).update(deadline=deadline)
        # The turn is sent just around the deadline: play_turn takes some milliseconds
        # to reach its check, so some land before the deadline and some after.
        aim = deadline.timestamp() + rng.uniform(-0.03, 0.0)

        def turn(game: Game = game, aim: float = aim) -> str:
            time.sleep(max(0.0, aim - time.time()))
            try:
                games.play_turn(game=game, player=alice.user, text="D2P", ply=3)
                return "played"
            except (TimeExpired, errors.GameOver):  # time_expired, or game_over if swept
                return "refused"

        def sweeper(game: Game = game, deadline: dt.datetime = deadline) -> str:
            # A sweeper that polls as fast as it can from the deadline on.
            time.sleep(max(0.0, deadline.timestamp() - time.time()))
            stop = time.monotonic() + 2
            while time.monotonic() < stop:
                outcome = services.expire_game(game_id=game.pk)
                if outcome != Expiry.NOT_DUE:
                    return outcome
                if Game.objects.filter(pk=game.pk, ply=3).exists():
                    return "turn came first"
            return "nothing due"

        played, swept = run_together(turn, sweeper)
        game.refresh_from_db()
        turns = Turn.objects.filter(game=game).count()
        if played == "played":
            assert swept == "turn came first", swept
            assert (game.status, game.ply, turns) == ("active", 3, 3)
            # The instant play_turn checked under the lock (the opponent's clock starts then).
            assert game.clock_since < deadline
        else:
            assert played == "refused", played
            assert swept == Expiry.TIMEOUT, swept
            assert (game.status, game.termination, game.ply, turns) == (
                "finished", "timeout", 2, 2,
            )  # fmt: skip
        outcomes[played] += 1
    assert sum(outcomes.values()) == 12


def test_two_sweepers_at_once_end_every_expired_game_exactly_once(make_player) -> None:
    players = [make_player(f"p{i}") for i in range(12)]
    Profile.objects.update(auto_vacation=False)
    expired = []
    for white, black in zip(players[::2], players[1::2], strict=True):
        game = game_after_two_turns(white, black)
        expired.append(services.fast_forward(game=game).pk)
    # And two games whose movers are under 24 hours: each warned exactly once.
    warned = []
    for white, black in ((players[0], players[3]), (players[2], players[5])):
        game = games.start_game(white=white.user, black=black.user)
        Game.objects.filter(pk=game.pk).update(
            clock_since=timezone.now() - dt.timedelta(days=2, hours=1),
            deadline=timezone.now() + dt.timedelta(hours=23),
        )
        warned.append(game.pk)
    finished: list[int] = []
    lock = threading.Lock()

    def count(sender: Any, game: Game, **kwargs: Any) -> None:
        with lock:
            finished.append(game.pk)

    signals.game_finished.connect(count)
    try:
        now = timezone.now()
        reports = run_together(*(lambda: services.sweep(now=now) for _ in range(3)))
    finally:
        signals.game_finished.disconnect(count)
    for report in reports:
        assert isinstance(report, services.SweepReport), report
        assert not report.errors
    assert sorted(finished) == sorted(expired)  # each game finished once, by one sweeper
    claimed = Counter(
        pk for report in reports for pk, outcome in report.outcomes.items() if outcome != "not_due"
    )
    assert claimed == Counter(expired)
    assert Game.objects.filter(pk__in=expired, termination="timeout").count() == len(expired)
    assert sum(report.warned for report in reports) == 2
    for pk in warned:
        assert Notification.objects.filter(game_id=pk, kind="low_time").count() == 1
    # Each player heard about the end once.
    for pk in expired:
        game = Game.objects.get(pk=pk)
        for user in (game.white, game.black):
            assert user.notifications.filter(kind="game_over", game=game).count() == 1
