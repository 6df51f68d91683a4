"""The fair job queue (core.jobs) on the database: the order between owners, the caps
under parallel requests, a slice's lease and attempts, late messages.  The real workers'
side is in analysis/tests/test_fairness.py and archive/tests/test_import_fairness.py."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from core import jobs
from core.errors import OwnerBusy
from core.models import Job
from core.testing import at_once, queue_family

POSITION = "C3W11,D4B00,F7B00,G7B00 w 4-0"


def _evaluation(owner: Any = None, position: str = POSITION) -> Job:
    return jobs.submit(kind="evaluation", owner=owner, payload={"position": position})


@pytest.mark.django_db
def test_whoever_has_one_job_waiting_starts_before_anybodys_next_one(
    make_player: Any, settings: Any
) -> None:
    settings.JOBS_EVALUATION_SLOTS = 1
    settings.JOBS_EVALUATION_PER_USER = 3
    ann, ben, cid = (make_player(name).user for name in ("ann", "ben", "cid"))
    queued = {
        name: [_evaluation(owner) for _ in range(count)]
        for name, owner, count in (("ann", ann, 3), ("ben", ben, 2), ("cid", cid, 1))
    }
    started: list[int] = []
    for _ in range(5):
        started += _finish_running()
    names = {job.pk: name for name, made in queued.items() for job in made}
    # ann's first started at once (a free slot): then one job of each, round after round.
    assert [names[job_id] for job_id in started] == ["ben", "cid", "ann", "ben", "ann"]


def _finish_running() -> list[int]:
    """Finish the running evaluation as its worker would (without the engine); returns
    the jobs the pump started then."""
    running = Job.objects.get(kind="evaluation", state="running")
    before = set(Job.objects.filter(state="running").values_list("pk", flat=True))
    Job.objects.filter(pk=running.pk).update(state="done", finished=timezone.now())
    jobs.pump("evaluation")
    return sorted(set(Job.objects.filter(state="running").values_list("pk", flat=True)) - before)


@pytest.mark.django_db
def test_the_place_in_line_follows_the_fair_order(make_player: Any, settings: Any) -> None:
    settings.JOBS_EVALUATION_SLOTS = 1
    settings.JOBS_EVALUATION_PER_USER = 3
    ann, ben = make_player("ann").user, make_player("ben").user
    running = _evaluation(ann)
    second, third = _evaluation(ann), _evaluation(ann)
    ben_first = _evaluation(ben)
    assert running.state == "running" and jobs.place_in_line(running) is None
    for job in (second, third, ben_first):
        job.refresh_from_db()
    # ann has one running: ben's first job is next, then ann's others.
    assert [jobs.place_in_line(job) for job in (ben_first, second, third)] == [1, 2, 3]
    assert jobs.jobs_ahead_text(1) == "Yours is next."
    assert jobs.jobs_ahead_text(3) == "Jobs ahead of yours: 2"


@pytest.mark.django_db
def test_a_slice_silent_past_its_lease_waits_again_then_fails_after_its_attempts(
    settings: Any,
) -> None:
    settings.JOBS_LEASE_SECONDS = 60
    job = _evaluation()
    assert job.state == "running" and job.slices == 1
    old = timezone.now() - datetime.timedelta(seconds=61)
    # Its message was never taken (no heartbeat): sent again, no attempt counted.
    Job.objects.filter(pk=job.pk).update(dispatched=old)
    assert jobs.sweep()["resent"] == 1
    job.refresh_from_db()
    assert (job.state, job.slices, job.attempts) == ("running", 2, 0)
    # A worker took it, then fell silent: one attempt lost, sent again.
    Job.objects.filter(pk=job.pk).update(heartbeat=old)
    assert jobs.sweep()["lost"] == 1
    job.refresh_from_db()
    assert (job.state, job.slices, job.attempts) == ("running", 3, 1)
    # Silent again: an evaluation has 2 attempts, then it fails for good.
    Job.objects.filter(pk=job.pk).update(heartbeat=old)
    jobs.sweep()
    job.refresh_from_db()
    assert (job.state, job.attempts) == ("failed", 2)
    assert "stopped answering" in job.error and job.finished is not None


@pytest.mark.django_db
def test_a_late_message_of_a_slice_given_back_does_nothing(settings: Any) -> None:
    job = _evaluation()
    Job.objects.filter(pk=job.pk).update(slices=2)  # slice 1 was given back and sent again
    assert jobs.run_slice(job.pk, 1) == "stale"
    job.refresh_from_db()
    assert job.state == "running" and job.heartbeat is None and job.result is None


@pytest.mark.django_db
def test_a_slice_runs_its_work_and_stores_the_result(settings: Any) -> None:
    job = _evaluation()
    assert jobs.run_slice(job.pk, 1) == "done"
    job.refresh_from_db()
    assert job.state == "done" and job.result["best"] == "C3xD4"
    assert job.started is not None and job.finished is not None


@pytest.mark.django_db
def test_finished_jobs_are_deleted_after_their_keep(settings: Any) -> None:
    settings.JOBS_KEEP_HOURS = 1
    job = _evaluation()
    jobs.run_slice(job.pk, 1)
    Job.objects.filter(pk=job.pk).update(finished=timezone.now() - datetime.timedelta(hours=2))
    assert jobs.sweep()["deleted"] == 1
    assert not Job.objects.filter(pk=job.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_parallel_requests_of_one_owner_never_pass_the_cap(make_player: Any, settings: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("parallel transactions need PostgreSQL (CI runs it)")
    settings.JOBS_EVALUATION_PER_USER = 2
    owner = make_player("racer").user

    def ask() -> str:
        try:
            _evaluation(owner)
        except OwnerBusy:
            return "busy"
        return "queued"

    with queue_family("nobody"):  # no worker ends a job meanwhile (the cap counts active ones)
        outcomes = at_once([ask] * 8)
    assert sorted(outcomes) == ["busy"] * 6 + ["queued"] * 2
    assert Job.objects.filter(owner=owner).count() == 2
