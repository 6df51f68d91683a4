""".agn imports are served in turns between users and run by slices (issue #28.2): a
small import is never stuck behind other users' big ones; the site's backlog is capped."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from archive.models import ImportJob
from archive.tests.agn_files import distinct_games
from core.models import Job
from core.testing import QueueFamily, queue_family, wait_for


def _upload(player: Any, text: str) -> Any:
    return player.client.post(
        "/api/v1/imports",
        {"file": SimpleUploadedFile("games.agn", text.encode())},
        format="multipart",
    )


@pytest.mark.django_db
def test_a_full_backlog_of_imports_gets_503_busy(make_player: Any, settings: Any) -> None:
    settings.JOBS_IMPORT_BACKLOG = 1
    players = [make_player(f"importer{n}") for n in range(3)]
    text = distinct_games(2)
    answers = [_upload(player, text) for player in players]
    # The first runs (one slot), the second waits: the backlog is full.
    assert [answer.status_code for answer in answers] == [202, 202, 503]
    assert answers[-1].json()["code"] == "busy" and int(answers[-1]["Retry-After"]) >= 1
    assert answers[1].json()["place_in_line"] == 1 and answers[0].json()["place_in_line"] is None
    assert ImportJob.objects.count() == 2  # nothing stored for the refused one


@pytest.fixture
def family() -> Iterator[QueueFamily]:
    with queue_family("imports") as own:
        yield own


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_small_import_finishes_while_other_users_big_imports_are_sliced(
    celery_workers: Any, family: QueueFamily, make_player: Any, settings: Any
) -> None:
    """#28.2: six 10,000-game files of 3 accounts delayed another user's 5-game import by
    17 minutes (first come, first served).  Now it waits for one slice of each."""
    settings.IMPORT_CHUNK_GAMES = 10
    settings.JOBS_SLICE_SECONDS = 1
    owners = [make_player(name) for name in ("ann", "ben", "cid")]
    big = []
    for index, owner in enumerate(owners):  # each their cap of two
        for number in range(2):
            text = distinct_games(300, seed=100 * index + number, white=f"W{index}{number}")
            answer = _upload(owner, text)
            assert answer.status_code == 202, answer.json()
            big.append(answer.json()["id"])
    victim = make_player("victim")
    small = _upload(victim, distinct_games(5, seed=7, white="Vic"))
    assert small.status_code == 202
    # ann's first runs; the first ones of ben and cid come before the victim's.
    assert small.json()["place_in_line"] == 3
    page = Client()
    page.force_login(victim.user)
    assert "Jobs ahead of yours: 2" in page.get(f"/import/{small.json()['id']}/").content.decode()

    env = {**family.env, "IMPORT_CHUNK_GAMES": "10", "JOBS_SLICE_SECONDS": "1"}
    started = time.monotonic()
    # Not purged: the first job's message was sent when it was queued.
    worker = celery_workers(queues=family.queue("imports"), env=env, purge=False)
    done = wait_for(
        lambda: ImportJob.objects.filter(pk=small.json()["id"], status="done").first(),
        worker,
        timeout=120,
    )
    took = time.monotonic() - started
    assert done.stored == 5
    # One slice of each user's first file ran before it; nobody's second had begun.
    seconds = big[1::2]
    begun = ImportJob.objects.filter(pk__in=seconds, processed__gt=0).count()
    assert begun == 0, (took, worker.log()[-3000:])
    # The big ones were run by slices, between which the others had their turns.
    wait_for(
        lambda: not ImportJob.objects.filter(pk__in=big, status__in=["queued", "running"]),
        worker,
        timeout=240,
    )
    assert ImportJob.objects.filter(pk__in=big, status="done").count() == 6
    assert Job.objects.filter(kind="import", subject_id__in=big, slices__gt=1).exists()


@pytest.mark.django_db
def test_the_import_page_says_busy_in_the_form_when_the_users_imports_reach_the_cap(
    alice: Any, client: Client
) -> None:
    client.force_login(alice.user)
    text = distinct_games(2)
    for _ in range(2):  # IMPORT_MAX_ACTIVE_JOBS
        assert _upload(alice, text).status_code == 202
    page = client.post("/import/", {"file": SimpleUploadedFile("more.agn", text.encode())})
    assert page.status_code == 200
    assert "You already have 2 imports waiting or running" in page.content.decode()
    assert ImportJob.objects.count() == 2
