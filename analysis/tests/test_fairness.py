"""Game analyses are served in turns between users, capped per user, run by slices, and
swept back when their worker dies (issue #28.2 and #28.8): real workers on queues of the
test's own, the sweep sent through the broker."""

from __future__ import annotations

import datetime
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone

from analysis import services
from analysis.models import AnalysedPosition, GameAnalysis
from analysis.tests.helpers import NODES, blunder_game
from core import jobs
from core.models import Job
from core.tasks import sweep_jobs
from core.testing import QueueFamily, queue_family, wait_for
from engine import Position
from games import services as game_services
from games.models import Game

LEASE_SECONDS = 4


def _url(game_id: int) -> str:
    return f"/api/v1/games/{game_id}/analysis"


def short_game(white: Any, black: Any, seed: int, plies: int = 4) -> Game:
    """A finished game: a few random turns, then White resigns."""
    game = game_services.start_game(white=white, black=black)
    position = Position.standard()
    rng = random.Random(seed)
    players = {"w": white, "b": black}
    for ply in range(1, plies + 1):
        text = str(position.random_turn(rng))
        mover = players[str(position).split()[1]]
        game_services.play_turn(game=game, player=mover, text=text, ply=ply)
        position.push_text(text)
    game_services.resign(game=Game.objects.get(pk=game.pk), player=white)
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def family() -> Iterator[QueueFamily]:
    with queue_family("analysis") as own:
        yield own


# --- Caps and the place in line (no worker) -----------------------------------------------


@pytest.mark.django_db
def test_a_users_fourth_analysis_gets_429_busy_and_the_answers_say_the_place(
    make_player: Any, client: Client, settings: Any
) -> None:
    settings.ANALYSIS_NODES = NODES
    ann, ben = make_player("ann"), make_player("ben")
    games = [short_game(ann.user, ben.user, seed) for seed in range(5)]
    answers = [ann.client.post(_url(game.pk)) for game in games[:4]]
    assert [answer.status_code for answer in answers] == [202, 202, 202, 429]
    refused = answers[-1]
    assert refused.json()["code"] == "busy" and int(refused["Retry-After"]) >= 1
    assert not GameAnalysis.objects.filter(game=games[3]).exists()  # nothing half-made
    # The first runs (one slot); ben's one analysis comes next, before ann's others.
    bens = ben.client.post(_url(games[4].pk)).json()
    places = [ann.client.get(_url(game.pk)).json()["place_in_line"] for game in games[:3]]
    assert places == [None, 2, 3] and bens["place_in_line"] == 1
    # The game page says it too.
    client.force_login(ann.user)
    page = client.get(f"/games/{games[2].pk}/").content.decode()
    assert "Jobs ahead of yours: 2" in page
    page = client.get(f"/games/{games[4].pk}/").content.decode()
    assert "Yours is next." in page
    # The game page's button says it when refused (no 500).
    refused_page = client.post(f"/games/{games[3].pk}/analyse/", follow=True)
    assert refused_page.status_code == 200
    assert "You already have 3 analyses waiting or running" in refused_page.content.decode()


@pytest.mark.django_db
def test_a_full_backlog_of_analyses_gets_503(make_player: Any, settings: Any) -> None:
    settings.ANALYSIS_NODES = NODES
    settings.JOBS_ANALYSIS_BACKLOG = 2
    players = [make_player(f"p{n}") for n in range(4)]
    games = [short_game(players[0].user, players[1].user, seed) for seed in range(4)]
    codes = [player.client.post(_url(game.pk)).status_code for player, game in zip(players, games)]
    assert codes == [202, 202, 202, 503]  # one runs, two wait: full


@pytest.mark.django_db
def test_an_analysis_whose_job_failed_says_so_and_asking_again_resumes_it(
    alice: Any, bob: Any, settings: Any, client: Client
) -> None:
    settings.ANALYSIS_NODES = NODES
    game = short_game(alice.user, bob.user, seed=3)
    assert alice.client.post(_url(game.pk)).status_code == 202
    analysis = GameAnalysis.objects.get(game=game)
    job = services.analysis_job(analysis)
    assert job is not None
    silent = timezone.now() - datetime.timedelta(hours=1)
    for _attempt in range(3):  # its worker lost three times
        Job.objects.filter(pk=job.pk).update(heartbeat=silent)
        jobs.sweep()
    body = alice.client.get(_url(game.pk)).json()
    assert body["status"] == "failed" and "ask for it again" in body["error"]
    client.force_login(alice.user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "ask for it again" in page and f'action="/games/{game.pk}/analyse/"' in page
    again = alice.client.post(_url(game.pk))
    assert again.status_code == 202 and again.json()["status"] == "queued"
    assert services.analysis_job(analysis) != job  # a new job for the same analysis


# --- Real workers -------------------------------------------------------------------------


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_players_one_analysis_starts_before_the_second_ones_of_users_who_queued_many(
    celery_workers: Any, family: QueueFamily, make_player: Any, settings: Any
) -> None:
    """#28.2: 89 analyses of 9 accounts made another player's 10-ply game wait ~45 min
    (first come, first served).  Now the victim waits for one job of each other user."""
    settings.ANALYSIS_NODES = NODES
    opponent = make_player("opponent").user
    owners = [make_player(name) for name in ("ann", "ben", "cid")]
    victim = make_player("victim")
    requested: dict[str, list[int]] = {}
    for index, owner in enumerate(owners):  # each their cap of 3, one after the other
        for number in range(3):
            game = short_game(owner.user, opponent, seed=10 * index + number)
            assert owner.client.post(_url(game.pk)).status_code == 202
            requested.setdefault(owner.username, []).append(game.pk)
    game = short_game(victim.user, opponent, seed=99)
    assert victim.client.post(_url(game.pk)).status_code == 202
    requested["victim"] = [game.pk]

    # Not purged: the first job's message was sent when it was queued.
    worker = celery_workers(queues=family.queue("analysis"), env=family.env, purge=False)
    wait_for(lambda: not GameAnalysis.objects.exclude(status="done").exists(), worker, 180)
    # The order the analyses started in: their first stored positions' ids.
    first_row = {
        game_id: AnalysedPosition.objects.filter(analysis__game_id=game_id)
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
        for games in requested.values()
        for game_id in games
    }
    order = sorted(first_row, key=lambda game_id: first_row[game_id])
    victims = order.index(requested["victim"][0])
    # ann's first started when it was asked for; then the first of each other user, the
    # victim's among them, before anybody's second.
    seconds = [order.index(requested[owner.username][1]) for owner in owners]
    assert victims == 3 and victims < min(seconds), order


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_analysis_is_swept_back_and_the_analysis_finishes(
    celery_workers: Any, family: QueueFamily, alice: Any, bob: Any, settings: Any
) -> None:
    """#28.8: after a kill -9 of the whole analysis worker (parent and children) the job
    stayed `running` at 16% for good.  Now the sweep (beat's task, through the broker)
    sees its heartbeat stop and sends the job again; it resumes and finishes."""
    settings.ANALYSIS_NODES = NODES
    game, _ply = blunder_game(alice.user, bob.user)
    settings.ANALYSIS_NODES = 150_000  # this job only: long enough to be killed in
    env = {**family.env, "JOBS_LEASE_SECONDS": str(LEASE_SECONDS)}
    first = celery_workers(pool="prefork", queues=family.queue("analysis"), env=env)
    assert alice.client.post(_url(game.pk)).status_code == 202
    analysis = GameAnalysis.objects.get(game=game)
    wait_for(lambda: AnalysedPosition.objects.filter(analysis=analysis).count() >= 2, first)
    first.kill()  # SIGKILL to the worker's whole process group: parent and pool child
    kept = dict(AnalysedPosition.objects.filter(analysis=analysis).values_list("ply", "pk"))
    assert 2 <= len(kept) < game.ply + 1, "the job ended before the kill: raise the budget"
    stuck = alice.client.post(_url(game.pk)).json()  # asking again: the same job
    assert stuck["status"] == "running" and stuck["place_in_line"] is None

    time.sleep(LEASE_SECONDS + 1)  # its heartbeat is now older than the lease
    sweeper = celery_workers(queues=family.queue("maintenance"), env=env)
    swept = sweep_jobs.delay().get(timeout=60)
    assert swept["lost"] == 1 and swept["started"] >= 1, sweeper.log()[-3000:]
    second = celery_workers(queues=family.queue("analysis"), env=env, purge=False)
    job = wait_for(
        lambda: Job.objects.filter(kind="analysis", subject_id=analysis.pk, state="done").first(),
        second,
        timeout=180,
    )
    assert job.attempts == 1  # one slice lost
    assert GameAnalysis.objects.get(pk=analysis.pk).status == "done"
    rows = dict(AnalysedPosition.objects.filter(analysis=analysis).values_list("ply", "pk"))
    assert sorted(rows) == list(range(game.ply + 1))
    assert {ply: rows[ply] for ply in kept} == kept  # the stored positions were kept


def test_the_sweep_runs_every_minute_within_its_own_limits() -> None:
    entry = django_settings.CELERY_BEAT_SCHEDULE["jobs-sweep"]
    assert entry["task"] == sweep_jobs.name and entry["schedule"] == 60.0
    assert sweep_jobs.soft_time_limit <= sweep_jobs.time_limit < 60
    assert "imports-sweep" not in django_settings.CELERY_BEAT_SCHEDULE  # replaced
