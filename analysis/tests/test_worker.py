"""Game analysis and explorer indexing by REAL Celery worker processes, including a
worker killed in the middle of an analysis (the job resumes, earlier positions kept)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings

from analysis import explorer
from analysis.models import AnalysedPosition, ExplorerPosition, GameAnalysis
from analysis.tests.helpers import NODES, blunder_game
from core.testing import QueueFamily, queue_family, wait_for
from engine import Position

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

VISIBILITY_SECONDS = 3


def _url(game_id: int) -> str:
    return f"/api/v1/games/{game_id}/analysis"


def test_an_analysis_requested_through_the_api_is_done_by_the_worker(
    celery_worker_process: Any, settings: Any, alice: Any, bob: Any, api: Any
) -> None:
    settings.ANALYSIS_NODES = NODES  # stored on the job: the worker uses the same budget
    settings.EXPLORER_INDEX_ON_FINISH = True  # the finish below queues the indexing
    game, blunder_ply = blunder_game(alice.user, bob.user)  # its finish queues the indexing
    start_key = explorer.position_key(str(Position.standard()))
    wait_for(lambda: ExplorerPosition.objects.filter(key=start_key).exists(), celery_worker_process)
    assert api.get("/api/v1/explorer").json()["games"] == 1

    assert alice.client.post(_url(game.pk)).status_code == 202
    wait_for(
        lambda: GameAnalysis.objects.filter(game=game, status="done").exists(),
        celery_worker_process,
    )
    body = api.get(_url(game.pk)).json()
    assert body["status"] == "done" and body["progress"] == 1.0
    assert len(body["turns"]) == game.ply
    assert body["turns"][blunder_ply - 1]["judgement"] == "blunder"
    assert alice.client.post(_url(game.pk)).status_code == 200  # done: the same job


@pytest.fixture
def own_queue() -> Iterator[QueueFamily]:
    """Route the tasks to queues only this test's workers read."""
    if not settings.CELERY_BROKER_URL.startswith("redis"):
        pytest.skip("redelivery after a crash needs the Redis broker (CI runs it)")
    with queue_family("analysis-crash") as family:
        yield family


def test_a_worker_killed_mid_analysis_leaves_a_job_that_resumes(
    celery_workers: Any, own_queue: QueueFamily, settings: Any, alice: Any, bob: Any
) -> None:
    settings.ANALYSIS_NODES = NODES
    game, _ply = blunder_game(alice.user, bob.user)
    # A bigger budget for this job only, so that it runs long enough to be killed in.
    env = {**own_queue.env, "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_SECONDS)}
    settings.ANALYSIS_NODES = 150_000
    first = celery_workers(queues=own_queue.queue("analysis"), env=env)
    assert alice.client.post(_url(game.pk)).status_code == 202
    analysis = GameAnalysis.objects.get(game=game)

    wait_for(lambda: AnalysedPosition.objects.filter(analysis=analysis).count() >= 2, first)
    first.kill()  # SIGKILL mid-job: the message was never acknowledged
    kept = dict(AnalysedPosition.objects.filter(analysis=analysis).values_list("ply", "pk"))
    assert 2 <= len(kept) < game.ply + 1, "the job ended before the kill: raise the budget"
    assert GameAnalysis.objects.get(pk=analysis.pk).status == "running"

    time.sleep(VISIBILITY_SECONDS + 1)
    second = celery_workers(queues=own_queue.queue("analysis"), purge=False, env=env)
    wait_for(
        lambda: GameAnalysis.objects.filter(pk=analysis.pk, status="done").exists(),
        second,
        timeout=120,
    )
    rows = dict(AnalysedPosition.objects.filter(analysis=analysis).values_list("ply", "pk"))
    assert sorted(rows) == list(range(game.ply + 1))
    assert {ply: rows[ply] for ply in kept} == kept  # the earlier positions were kept
    assert len(alice.client.get(_url(game.pk)).json()["turns"]) == game.ply


def test_the_analysis_board_evaluates_a_position_in_a_short_job(
    celery_worker_process: Any, api: Any, client: Any
) -> None:
    page = client.get("/analysis/").content.decode()
    assert 'id="evaluate-button"' in page and "analysis/evaluate.js" in page
    text = "C3W11,D4B00,F7B00,G7B00 w 4-0"  # White captures D4 and wins
    queued = api.post("/api/v1/evaluations", {"position": text}, format="json")
    assert queued.status_code == 202 and queued.json()["status"] == "queued"
    job = queued.json()["id"]
    body = wait_for(
        lambda: (
            (answer := api.get(f"/api/v1/evaluations/{job}").json())["status"] == "done" and answer
        ),
        celery_worker_process,
    )
    assert body["eval"] == 1.0 and body["best"] == "C3xD4" and body["pv"] == ["C3xD4"]
    assert body["position"] == text
