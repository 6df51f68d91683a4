"""The analysis board's evaluations are jobs of their own queue (issue #28.1): never in
front of the bots' replies, capped per user, visitors sharing one small budget, a busy
answer (429/503 `busy` with Retry-After) instead of an hour-long queue, and the place
in line in the answers."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts.models import Profile
from config.celery import app as celery_app
from core import jobs
from core.models import Job
from core.testing import QueueFamily, queue_family, wait_for
from engine import Position
from games import services as game_services
from games.models import Challenge

URL = "/api/v1/evaluations"
# The browser test's screenshots, looked at by a person (web/tests/test_daily_browser.py).
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
POSITION = "C3W11,D4B00,F7B00,G7B00 w 4-0"


def _evaluate(client: Any, address: str = "198.51.100.7", position: str = POSITION) -> Any:
    return client.post(URL, {"position": position}, format="json", REMOTE_ADDR=address)


def test_evaluations_go_to_a_queue_of_their_own_not_the_bots() -> None:
    routed = celery_app.amqp.router.route({}, "analysis.tasks.evaluate_position")["queue"].name
    assert routed == django_settings.TASK_QUEUE_NAMES["evaluations"]
    bots = celery_app.amqp.router.route({}, "bots.tasks.bot_accept_challenge")["queue"].name
    assert routed != bots


@pytest.mark.django_db
def test_a_users_third_evaluation_waiting_gets_429_busy_with_retry_after(
    alice: Any, bob: Any
) -> None:
    assert _evaluate(alice.client).status_code == 202
    assert _evaluate(alice.client).status_code == 202
    third = _evaluate(alice.client)
    assert third.status_code == 429, third.json()
    assert third.json()["code"] == "busy" and "at most 2" in third.json()["error"]
    assert int(third["Retry-After"]) >= 1 and third.json()["retry_after"] >= 1
    assert _evaluate(bob.client).status_code == 202  # a cap per user


@pytest.mark.django_db
def test_visitors_share_one_budget_whatever_their_address(alice: Any) -> None:
    answers = [_evaluate(APIClient(), f"203.0.113.{n}") for n in range(1, 6)]
    assert [answer.status_code for answer in answers] == [202, 202, 202, 202, 429]
    assert answers[-1].json()["code"] == "busy" and "log in" in answers[-1].json()["error"]
    assert answers[-1]["Retry-After"]
    assert _evaluate(alice.client).status_code == 202  # an account has its own


@pytest.mark.django_db
def test_a_full_backlog_gets_503_busy_with_retry_after(make_player: Any, settings: Any) -> None:
    settings.JOBS_EVALUATION_BACKLOG = 3
    players = [make_player(f"eval{n}") for n in range(6)]
    # 2 start at once (the slots), 3 wait: the backlog is full.
    codes = [_evaluate(player.client).status_code for player in players]
    assert codes == [202] * 5 + [503]
    refused = _evaluate(players[-1].client)
    assert refused.json()["code"] == "busy" and int(refused["Retry-After"]) >= 1


@pytest.mark.django_db
def test_the_answers_say_the_place_in_line(alice: Any, bob: Any, api: Any) -> None:
    running = [_evaluate(alice.client).json() for _ in range(2)]  # the 2 slots
    assert [body["place_in_line"] for body in running] == [None, None]
    assert running[0]["status"] == "queued"
    visitors = _evaluate(api, "203.0.113.9").json()
    bobs = _evaluate(bob.client).json()
    assert (visitors["place_in_line"], bobs["place_in_line"]) == (1, 2)
    polled = api.get(f"{URL}/{bobs['id']}").json()
    assert polled == {"id": bobs["id"], "status": "queued", "place_in_line": 2}
    assert api.get(f"{URL}/not-a-job").status_code == 404
    assert api.get(f"{URL}/00000000-0000-0000-0000-000000000000").status_code == 404


# --- Real workers: a bot's answer while the evaluations' worker is saturated -------------------


@pytest.fixture
def family() -> Iterator[QueueFamily]:
    with queue_family("evaluations") as own:
        yield own


def _bot() -> Any:
    bot = get_user_model().objects.create_user("quickbot")
    bot.set_unusable_password()
    bot.save()
    Profile.objects.filter(user=bot).update(is_bot=True, bot_engine="random", bot_level=1)
    return bot


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_bot_accepts_a_challenge_in_seconds_while_evaluations_fill_their_worker(
    celery_workers: Any, family: QueueFamily, make_player: Any, settings: Any
) -> None:
    """#28.1: 180 evaluations from 6 callers delayed a bot's challenge accept ~6 minutes
    when they shared the `interactive` queue.  Now they wait in their own queue."""
    settings.ANALYSIS_BOARD_NODES = 300_000  # seconds per evaluation (fixed per job)
    heavy = {**family.env, "ANALYSIS_BOARD_NODES": "300000"}
    evaluations = celery_workers(queues=family.queue("evaluations"), env=heavy)
    interactive = celery_workers(queues=family.queue("interactive"), env=heavy)
    callers = [make_player(f"flood{n}").client for n in range(3)]
    callers += [APIClient() for _ in range(3)]  # visitors, from three addresses
    accepted = []
    start = str(Position.standard())  # a real search (a won position ends at once)
    for _round in range(3):
        for n, caller in enumerate(callers):
            answer = _evaluate(caller, f"192.0.2.{n}", start)
            accepted.append(answer.status_code == 202)
    assert sum(accepted) == 3 * 2 + 4  # each account's cap, the visitors' shared budget
    wait_for(lambda: "analysis.tasks.evaluate_position[" in evaluations.log(), evaluations)

    challenger, bot = make_player("challenger"), _bot()
    asked = time.monotonic()
    challenge = game_services.create_challenge(creator=challenger.user, opponent=bot.username)
    wait_for(
        lambda: Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.ACCEPTED,
        interactive,
        timeout=60,
    )
    took = time.monotonic() - asked
    unfinished = Job.objects.filter(kind="evaluation", state__in=["waiting", "running"]).count()
    assert took < 3.0, (took, evaluations.log()[-2000:])
    assert unfinished >= 5  # the evaluations were still being worked through meanwhile
    assert "analysis.tasks.evaluate_position[" not in interactive.log()


# --- The analysis board in a real browser ---------------------------------------------------


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_board_shows_the_place_in_line_then_the_busy_answer(
    live_server: Any, browser: Any, family: QueueFamily, make_player: Any
) -> None:
    """Nobody reads this test's queues: the jobs wait, as behind a busy worker."""
    busy = make_player("busy").user
    for _ in range(2):  # the two slots taken
        jobs.submit(kind="evaluation", owner=busy, payload={"position": POSITION})
    page = browser.new_context(locale="en").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server.url + "/analysis/")
    page.click("#evaluate-button")
    result = page.locator("#evaluation-result")
    result.filter(has_text="Yours is next.").wait_for(timeout=10_000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "analysis-board-in-line.png"), full_page=True)
    for _ in range(3):  # the visitors' budget of 4, full with the one above
        jobs.submit(kind="evaluation", owner=None, payload={"position": POSITION})
    page.reload()
    page.click("#evaluate-button")
    result.filter(has_text="Visitors already have 4 evaluations").wait_for(timeout=10_000)
    page.screenshot(path=str(SHOTS / "analysis-board-busy.png"), full_page=True)
    assert page.locator("#evaluate-button").is_enabled() and errors == []
