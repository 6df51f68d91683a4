"""Starting a tournament: the request only closes registration, a job does the work.

The request (page, API, admin, schedule) checks what is cheap and answers "starting";
the start job ranks the players, tells them and pairs round 1 on a real worker, or puts
the tournament back in registration with the reason.  Every task that pairs a round has
the same time limits, whoever queued it (issue #28.9).
"""

from __future__ import annotations

import contextlib
import datetime
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone
from kombu import Queue
from rest_framework.test import APIClient

from accounts.services import create_token
from config.celery import app as celery_app
from core.testing import wait_for
from games.models import Game
from notifications.models import Notification
from tournaments import services, tasks
from tournaments.models import Round, Tournament

from .helpers import make_tournament, make_user


def _route_tournament_tasks(routes: Any) -> None:
    celery_app.conf.task_routes = routes
    celery_app.amqp.flush_routes()
    celery_app.amqp.__dict__.pop("router", None)  # a cached_property: rebuilt from the routes


@contextlib.contextmanager
def tournament_tasks_routed_to(queue: str) -> Iterator[str]:
    """Route the tournament tasks sent inside the block to ``queue``: only a worker of the
    test's own reads it (the session's worker reads the session's queues)."""
    previous = celery_app.conf.task_routes
    _route_tournament_tasks({**dict(previous or {}), "tournaments.tasks.*": {"queue": queue}})
    try:
        yield queue
    finally:
        _route_tournament_tasks(previous)


@pytest.fixture
def own_queue() -> Iterator[str]:
    """Nothing runs the tournament tasks until the test starts a worker on this queue."""
    with tournament_tasks_routed_to(f"tournaments-start-{uuid.uuid4().hex[:8]}") as queue:
        yield queue


def _delete_queue(name: str) -> None:
    with celery_app.connection_for_write() as conn:
        queue = Queue(name)(conn.default_channel)
        queue.declare()
        queue.delete()


def _organiser_client(organiser: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {create_token(user=organiser)}")
    return client


def _limits(task: Any) -> tuple[int | None, int | None]:
    return task.time_limit, task.soft_time_limit


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_start_request_answers_before_any_ranking_and_a_worker_pairs_round_1(
    celery_workers: Any, own_queue: str
) -> None:
    organiser = make_user("orga", organiser=True)
    players = [make_user(f"s{i}", rating=1500 + 10 * i) for i in range(6)]
    tournament = make_tournament(organiser, players, rounds=3)
    client = _organiser_client(organiser)

    response = client.post(f"/api/v1/tournaments/{tournament.pk}/start")
    assert response.status_code == 202, response.content
    body = response.json()
    assert (body["status"], body["current_round"], body["registration_open"]) == (
        "starting",
        0,
        False,
    )
    # None of the start's work was done in the request: no ranks, no word to the
    # players, no round, no game.
    assert [p["seed"] for p in body["participants"]] == [None] * 6
    assert not Notification.objects.filter(kind="tournament_started").exists()
    assert not Round.objects.exists() and not Game.objects.exists()
    again = client.post(f"/api/v1/tournaments/{tournament.pk}/start")
    assert (again.status_code, again.json()["code"]) == (409, "wrong_state")

    worker = celery_workers(queues=own_queue, purge=False)
    wait_for(lambda: Round.objects.filter(tournament=tournament, number=1).exists(), worker)
    detail = client.get(f"/api/v1/tournaments/{tournament.pk}").json()
    assert (detail["status"], detail["current_round"], detail["start_error"]) == ("running", 1, "")
    # Ranked by rating (s5 is the highest), everybody told, three games.
    assert {p["username"]: p["seed"] for p in detail["participants"]}["s5"] == 1
    assert Notification.objects.filter(kind="tournament_started").count() == 6
    assert Game.objects.filter(tournament_pairing__round__tournament=tournament).count() == 3
    assert "tournaments.tasks.start_tournament_task" in worker.log()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_start_the_job_refuses_goes_back_to_registration_with_the_reason(
    celery_workers: Any, own_queue: str, client: Any
) -> None:
    organiser = make_user("orga", organiser=True)
    ann, bob = make_user("ann"), make_user("bob")
    tournament = make_tournament(organiser, [ann, bob])
    client.force_login(organiser)
    page = client.post(f"/tournaments/{tournament.pk}/start/", follow=True)
    assert "The tournament is starting" in page.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.STARTING
    # Before the job runs, a player leaves (registration is simply removed: not ranked yet).
    assert services.withdraw(tournament=tournament, user=bob) is None

    worker = celery_workers(queues=own_queue, purge=False)
    wait_for(
        lambda: Tournament.objects.filter(
            pk=tournament.pk, status=Tournament.Status.REGISTRATION
        ).exists(),
        worker,
    )
    message = "A tournament needs at least two players to start."
    detail = _organiser_client(organiser).get(f"/api/v1/tournaments/{tournament.pk}").json()
    assert (detail["status"], detail["start_error"]) == ("registration", message)
    assert message in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert not Round.objects.exists()
    # Another player comes; the next start clears the reason and runs.
    services.join(tournament=tournament, user=make_user("cid"))
    services.request_start(tournament=tournament, by=organiser)
    wait_for(lambda: Round.objects.filter(tournament=tournament, number=1).exists(), worker)
    assert Tournament.objects.get(pk=tournament.pk).start_error == ""


def test_every_task_that_pairs_has_the_same_time_limits() -> None:
    pairing_tasks = [
        tasks.start_tournament_task,
        tasks.advance_tournament,
        tasks.pair_round_task,
        tasks.pair_opening_rounds_task,
        tasks.publish_round_task,
    ]
    assert {_limits(task) for task in pairing_tasks} == {(900, 850)}
    # The heartbeat pairs nothing itself: it queues those tasks.
    assert _limits(tasks.tournament_heartbeat) == (300, 270)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_re_pairs_a_lost_start_under_the_start_jobs_time_limits(
    celery_worker_process: Any,
) -> None:
    organiser = make_user("orga", organiser=True)
    tournament = make_tournament(organiser, [make_user(f"h{i}") for i in range(4)])
    # Ranked, and the message that pairs round 1 is lost (in a queue nobody reads), as
    # when the start job's worker dies after the ranking's commit.
    with tournament_tasks_routed_to(f"lost-{uuid.uuid4().hex[:8]}") as lost:
        services.start_tournament(tournament=tournament, by=organiser, pair_now=False)
    _delete_queue(lost)
    assert Tournament.objects.get(pk=tournament.pk).current_round == 0
    seen = len(celery_worker_process.output)

    summary = tasks.tournament_heartbeat.delay().get(timeout=60)
    assert summary["advanced"] == [tournament.pk]
    wait_for(
        lambda: Round.objects.filter(tournament=tournament, number=1).exists(),
        celery_worker_process,
    )
    log = "".join(celery_worker_process.output[seen:])
    paired_by = re.findall(r"Task (\S+)\[[^\]]+\] succeeded in [\d.]+s: 'paired'", log)
    assert paired_by == ["tournaments.tasks.advance_tournament"], log
    repairing = celery_app.tasks[paired_by[0]]
    normal = celery_app.tasks["tournaments.tasks.pair_opening_rounds_task"]
    assert _limits(repairing) == _limits(normal) == (900, 850)
    assert _limits(repairing) == _limits(
        celery_app.tasks["tournaments.tasks.start_tournament_task"]
    )


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_queues_the_start_of_a_due_tournament_and_a_lost_start_again(
    celery_worker_process: Any,
) -> None:
    organiser = make_user("orga", organiser=True)
    due = make_tournament(
        organiser,
        [make_user(f"d{i}") for i in range(2)],
        starts_at=timezone.now() + datetime.timedelta(seconds=1),
    )
    lost = make_tournament(organiser, [make_user(f"l{i}") for i in range(2)], name="Lost")
    # Its start was asked for long ago and its message never reached a worker.
    long_ago = timezone.now() - services.LOST_START_AFTER - datetime.timedelta(minutes=1)
    Tournament.objects.filter(pk=lost.pk).update(
        status=Tournament.Status.STARTING, start_requested=long_ago
    )
    wait_for(lambda: timezone.now() > due.starts_at, celery_worker_process)

    summary = tasks.tournament_heartbeat.delay().get(timeout=60)
    assert (summary["started"], summary["restarted"]) == ([due.pk], [lost.pk])
    for tournament in (due, lost):
        wait_for(
            lambda t=tournament: Round.objects.filter(tournament=t, number=1).exists(),
            celery_worker_process,
        )
    # Queued once: the next heartbeat finds nothing to start or restart.
    summary = tasks.tournament_heartbeat.delay().get(timeout=60)
    assert (summary["started"], summary["restarted"]) == ([], [])
