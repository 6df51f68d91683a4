"""Rounds are paired exactly once: twice, concurrently, after a crash, and by a real worker."""

from __future__ import annotations

import time

import pytest

from core.testing import at_once
from games import signals
from games.models import Game
from tournaments import selectors, services
from tournaments.models import Pairing, Round, Tournament
from tournaments.tasks import advance_tournament, tournament_heartbeat

from .helpers import finish, make_tournament, make_user, open_games


def _score_round_without_tasks(tournament: Tournament, number: int) -> None:
    # Sets the outcomes directly (no game-finished signal, so no task is queued):
    # the test, not a worker, decides when the next round is paired.
    Pairing.objects.filter(round__tournament=tournament, round__number=number).exclude(
        black=None
    ).update(white_outcome="1", black_outcome="0")


@pytest.mark.django_db(transaction=True)
def test_concurrent_pairing_of_the_same_round_creates_it_once() -> None:
    organiser = make_user("orga", organiser=True)
    players = [make_user(f"c{i}", rating=1900 - i) for i in range(8)]
    tournament = make_tournament(organiser, players, rounds=4)
    services.start_tournament(tournament=tournament, by=organiser)
    _score_round_without_tasks(tournament, 1)

    results = at_once(
        [lambda: services.pair_round(tournament_id=tournament.pk, round_number=2)] * 6
    )
    assert sum(r is not None for r in results) == 1
    assert Round.objects.filter(tournament=tournament, number=2).count() == 1
    assert Pairing.objects.filter(round__tournament=tournament, round__number=2).count() == 4
    assert Game.objects.filter(tournament_pairing__round__number=2).count() == 4
    tournament.refresh_from_db()
    assert tournament.current_round == 2


@pytest.mark.django_db(transaction=True)
def test_advance_task_run_twice_pairs_one_round() -> None:
    organiser = make_user("orga", organiser=True)
    players = [make_user(f"t{i}") for i in range(4)]
    tournament = make_tournament(organiser, players, rounds=3)
    services.start_tournament(tournament=tournament, by=organiser)
    _score_round_without_tasks(tournament, 1)
    # Task bodies run here, in-process (apply), as a redelivered message would.
    first = advance_tournament.apply(args=[tournament.pk]).get()
    second = advance_tournament.apply(args=[tournament.pk]).get()
    assert (first, second) == ("paired", "waiting")
    assert Round.objects.filter(tournament=tournament).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_crash_half_way_through_pairing_leaves_nothing_and_a_retry_succeeds() -> None:
    organiser = make_user("orga", organiser=True)
    players = [make_user(f"k{i}") for i in range(6)]
    tournament = make_tournament(organiser, players, rounds=3)
    services.start_tournament(tournament=tournament, by=organiser)
    _score_round_without_tasks(tournament, 1)
    started: list[int] = []

    def die_on_second_game(sender, game, **kwargs) -> None:
        started.append(game.pk)
        if len(started) == 2:
            raise RuntimeError("worker killed")

    signals.game_started.connect(die_on_second_game)
    try:
        with pytest.raises(RuntimeError):
            services.pair_round(tournament_id=tournament.pk, round_number=2)
    finally:
        signals.game_started.disconnect(die_on_second_game)
    tournament.refresh_from_db()
    assert tournament.current_round == 1
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    assert not Game.objects.filter(pk__in=started).exists()
    # The redelivered task pairs it normally.
    assert services.pair_round(tournament_id=tournament.pk, round_number=2) is not None
    assert Pairing.objects.filter(round__tournament=tournament, round__number=2).count() == 3


def _wait_for(predicate, worker, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out; worker log:\n{worker.log()[-4000:]}")


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_runs_a_swiss_to_the_end(celery_worker_process) -> None:
    organiser = make_user("orga", organiser=True)
    players = [make_user(f"w{i}", rating=1800 - 20 * i) for i in range(5)]
    tournament = make_tournament(organiser, players, rounds=3, name="Worker Swiss")
    services.start_tournament(tournament=tournament, by=organiser)
    results = ["1-0", "1/2-1/2", "0-1"]
    for number in (1, 2, 3):
        _wait_for(
            lambda n=number: Round.objects.filter(tournament=tournament, number=n).exists(),
            celery_worker_process,
        )
        for index, game in enumerate(open_games(tournament)):
            # Each resignation commits; its receiver queues advance_tournament on commit.
            finish(game, results[(index + number) % 3])
    _wait_for(
        lambda: Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED,
        celery_worker_process,
    )
    table = selectors.standings(tournament)
    assert not table.provisional
    # 5 players, 3 rounds: 2 games and 1 bye (1 point) per round.
    assert sum(row.points for row in table.rows) == 3 * (2 * 2 + 2)
    assert Round.objects.filter(tournament=tournament).count() == 3


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_plays_a_round_robin_with_turns(celery_worker_process) -> None:
    import random

    from games import services as game_services
    from games.tests.helpers import pick_turn

    organiser = make_user("orga", organiser=True)
    players = [make_user(f"r{i}") for i in range(3)]
    tournament = make_tournament(organiser, players, format="roundrobin", name="Worker RR")
    services.start_tournament(tournament=tournament, by=organiser)
    rng = random.Random(5)
    for number in (1, 2, 3):
        _wait_for(
            lambda n=number: Round.objects.filter(tournament=tournament, number=n).exists(),
            celery_worker_process,
        )
        (game,) = open_games(tournament)
        # Played to the end through games.services: the engine decides the result.
        while game.status != Game.Status.FINISHED and game.ply < 400:
            mover = game.white if game.to_move == "white" else game.black
            game, _ = game_services.play_turn(
                game=game, player=mover, text=pick_turn(game.position, rng), ply=game.ply + 1
            )
        if game.status != Game.Status.FINISHED:
            finish(game, "1/2-1/2")
    _wait_for(
        lambda: Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED,
        celery_worker_process,
    )
    cells = selectors.crosstable(tournament)[1]
    assert all(len(row) == 3 for row in cells)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_heartbeat_on_the_worker_starts_due_tournaments(celery_worker_process) -> None:
    import datetime

    from django.utils import timezone

    organiser = make_user("orga", organiser=True)
    players = [make_user(f"h{i}") for i in range(2)]
    tournament = make_tournament(
        organiser, players, starts_at=timezone.now() + datetime.timedelta(seconds=2)
    )
    time.sleep(2.1)
    summary = tournament_heartbeat.delay().get(timeout=60)
    assert summary["started"] == [tournament.pk]
    # The heartbeat queued the start job; the worker runs it next.
    _wait_for(
        lambda: Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING,
        celery_worker_process,
    )
