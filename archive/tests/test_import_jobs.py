"""The .agn import is a job run by real Celery workers: 202 and a job URL, progress and a
per-game report, the same game stored once (even by two jobs at once), a killed worker
resumed without duplicates, limits per user and per file (issue #14.2, #15)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.utils import translation

from accounts.models import Profile
from archive import imports
from archive.models import ImportedGame, ImportJob
from archive.tests.agn_files import distinct_games
from core import jobs as core_jobs
from core.testing import QueueFamily, queue_family, wait_for
from games.models import Game, Turn

User = get_user_model()
LEASE_SECONDS = 3

BAD_TURN = """[White "Cleo"]
[Black "Dan"]
[Result "1-0"]

1. D2L D6L 2. D2-D9 1-0
"""


def _upload(player: Any, text: str, name: str = "games.agn") -> Any:
    return player.client.post(
        "/api/v1/imports", {"file": SimpleUploadedFile(name, text.encode())}, format="multipart"
    )


def _finished(job_id: int) -> ImportJob | None:
    job = ImportJob.objects.get(pk=job_id)
    return None if job.is_active else job


def _no_game_twice() -> None:
    """No two imported games have the same players and turns (beyond the unique hash)."""
    games: dict[int, list[str]] = {}
    for game_id, text in (
        Turn.objects.filter(game__imported=True)
        .order_by("game_id", "ply")
        .values_list("game_id", "text")
    ):
        games.setdefault(game_id, []).append(text)
    players = dict(Game.objects.filter(imported=True).values_list("id", "white_id"))
    keys = [(players[game_id], tuple(turns)) for game_id, turns in games.items()]
    assert len(keys) == len(set(keys))


# --- With the session's worker ---------------------------------------------------------------


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_upload_answers_202_and_a_worker_stores_its_games_with_a_report(
    celery_worker_process: Any, alice: Any
) -> None:
    answer = _upload(alice, distinct_games(30) + "\n" + BAD_TURN)
    assert answer.status_code == 202, answer.json()
    body = answer.json()
    assert answer["Location"] == body["url"] == f"/api/v1/imports/{body['id']}"
    assert body["status"] in ("queued", "running")
    job = wait_for(lambda: _finished(body["id"]), celery_worker_process)
    shown = alice.client.get(body["url"]).json()
    assert (shown["status"], shown["total"], shown["processed"]) == ("done", 31, 31)
    assert (shown["stored"], shown["duplicates"], shown["rejected"]) == (30, 0, 1)
    assert [entry["status"] for entry in shown["report"]] == ["stored"] * 30 + ["rejected"]
    last = shown["report"][-1]
    assert (last["game"], last["turn"], last["code"]) == (31, 3, "illegal_turn")
    assert last["message"] == "illegal turn D2-D9: D9 is not on the board"
    assert Game.objects.filter(imported=True).count() == 30 == job.games.count()
    assert job.text == ""  # imported: the uploaded text is not kept


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_same_file_imported_again_is_reported_as_already_there_and_stored_once(
    celery_worker_process: Any, alice: Any, bob: Any
) -> None:
    text = distinct_games(25, seed=7)
    first = _upload(alice, text).json()
    wait_for(lambda: _finished(first["id"]), celery_worker_process)
    # Again, by someone else, with other headers and comments: the same games.
    again = text.replace('[Event "?"]', '[Event "Club night"]').replace(" 0-1", " { gg } 0-1")
    second = _upload(bob, again, name="copy.agn").json()
    wait_for(lambda: _finished(second["id"]), celery_worker_process)
    shown = bob.client.get(second["url"]).json()
    assert (shown["stored"], shown["duplicates"], shown["rejected"]) == (0, 25, 0)
    first_games = [e["game_id"] for e in alice.client.get(first["url"]).json()["report"]]
    assert [e["game_id"] for e in shown["report"]] == first_games  # pointing at the stored ones
    assert Game.objects.filter(imported=True).count() == 25
    assert bob.client.get(first["url"]).status_code == 404  # a job is its owner's
    _no_game_twice()


@pytest.mark.django_db
def test_the_job_page_follows_the_job_and_speaks_the_readers_language(alice: Any) -> None:
    job = imports.create_job(owner=alice.user, text=BAD_TURN, file_name="bad.agn")
    Profile.objects.filter(user=alice.user).update(language="ru")  # restored at login
    browser = Client()
    browser.force_login(alice.user)
    page = browser.get(f"/import/{job.pk}/").content.decode()
    assert 'http-equiv="refresh"' in page  # queued: the page reloads itself (no script)
    imports.run_job(job_id=job.pk)
    page = browser.get(f"/import/{job.pk}/").content.decode()
    assert 'http-equiv="refresh"' not in page
    with translation.override("ru"):
        expected = imports.entry_text(
            imports.ReportEntry.from_json(ImportJob.objects.get().report[0])
        )
    assert not expected.startswith("illegal turn")  # translated…
    assert expected in page  # …and shown
    answer = alice.client.get(f"/api/v1/imports/{job.pk}", HTTP_ACCEPT_LANGUAGE="eo").json()
    assert answer["report"][0]["message"] not in ("", expected)
    assert "D9" in answer["report"][0]["message"]


# --- Limits ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_third_waiting_import_of_one_user_gets_429_with_retry_after(alice: Any, bob: Any) -> None:
    text = distinct_games(2)
    assert _upload(alice, text).status_code == 202
    assert _upload(alice, text).status_code == 202
    third = _upload(alice, text)
    assert third.status_code == 429 and third.json()["code"] == "busy"
    assert int(third["Retry-After"]) > 0
    assert _upload(bob, text).status_code == 202  # a limit per user
    assert ImportJob.objects.filter(owner=alice.user).count() == 2


@pytest.mark.django_db
def test_uploads_that_are_no_text_or_no_file_get_400(alice: Any) -> None:
    answer = alice.client.post(
        "/api/v1/imports",
        {"file": SimpleUploadedFile("x.agn", b"\xff\xfe\x00")},
        format="multipart",
    )
    assert answer.status_code == 400 and answer.json()["code"] == "import_file_refused"
    assert alice.client.post("/api/v1/imports", {}, format="multipart").json()["code"] == "invalid"
    # UTF-8, but a NUL in a tag (PostgreSQL stores no NUL: it was a 500 there, #14.9).
    nul = b'[White "A\x00B"]\n[Black "Bob"]\n\n1. D2L 0-1\n'
    answer = alice.client.post(
        "/api/v1/imports", {"file": SimpleUploadedFile("x.agn", nul)}, format="multipart"
    )
    assert answer.status_code == 400 and "NUL" in answer.json()["error"], answer.json()
    assert not ImportJob.objects.exists()


@pytest.mark.django_db
def test_a_file_with_too_many_games_fails_whole_and_stores_nothing(
    alice: Any, settings: Any
) -> None:
    settings.IMPORT_MAX_GAMES = 10
    job = imports.create_job(owner=alice.user, text=distinct_games(11))
    assert imports.run_job(job_id=job.pk) == "failed"
    job.refresh_from_db()
    assert job.error_code == "too_many_games" and "10" in imports.job_error_text(job)
    assert not Game.objects.filter(imported=True).exists()


@pytest.mark.django_db
def test_a_file_naming_too_many_new_players_creates_no_account(alice: Any, settings: Any) -> None:
    settings.IMPORT_MAX_NEW_NAMES = 5
    text = "\n".join(distinct_games(1, seed=n, white=f"w{n}", black=f"b{n}") for n in range(3))
    users = User.objects.count()
    job = imports.create_job(owner=alice.user, text=text)  # 6 new names
    assert imports.run_job(job_id=job.pk) == "failed"
    job.refresh_from_db()
    assert job.error_code == "too_many_names" and job.error_params == {"count": 6, "max": 5}
    assert User.objects.count() == users and not Game.objects.filter(imported=True).exists()
    # Names already in the archive do not count again.
    settings.IMPORT_MAX_NEW_NAMES = 6
    imports.import_games(user=alice.user, text=text)
    settings.IMPORT_MAX_NEW_NAMES = 0
    job = imports.create_job(owner=alice.user, text=text + "\n" + text)
    assert imports.run_job(job_id=job.pk) == "done"


# --- Workers of their own: concurrent jobs, a killed worker -----------------------------------------


@pytest.fixture
def import_queue() -> Iterator[QueueFamily]:
    """Route the tasks to queues only this test's workers read (a worker sends a job's
    next slice to its own family's queue)."""
    with queue_family("imports") as family:
        yield family


def _on_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (CI runs it)")


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_two_jobs_of_one_file_at_once_store_each_game_once(
    celery_workers: Any, import_queue: QueueFamily, alice: Any, bob: Any, settings: Any
) -> None:
    _on_postgresql()
    settings.JOBS_IMPORT_SLOTS = 2  # two at once (the workers pump with the same number)
    env = {**import_queue.env, "IMPORT_CHUNK_GAMES": "5", "JOBS_IMPORT_SLOTS": "2"}
    workers = [celery_workers(queues=import_queue.queue("imports"), env=env) for _ in range(2)]
    text = distinct_games(150, seed=3)
    jobs = [_upload(player, text).json()["id"] for player in (alice, bob)]
    done = [wait_for(lambda job_id=job_id: _finished(job_id), workers[0]) for job_id in jobs]
    assert [job.status for job in done] == ["done", "done"], workers[0].log() + workers[1].log()
    assert sum(job.stored for job in done) == 150
    assert (
        sum(job.duplicates for job in done) == 150
    )  # each game: stored by one, "there" for the other
    assert Game.objects.filter(imported=True).count() == ImportedGame.objects.count() == 150
    _no_game_twice()
    # Both worked on it (the point of the test); the shared names were created once.
    assert all("run_import_job" in worker.log() for worker in workers)
    assert User.objects.filter(username__iexact="Ann@imported").count() == 1


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_in_the_middle_of_an_import_is_resumed_without_duplicates(
    celery_workers: Any, import_queue: QueueFamily, alice: Any, settings: Any
) -> None:
    settings.JOBS_LEASE_SECONDS = LEASE_SECONDS  # the sweep below runs here
    env = {**import_queue.env, "IMPORT_CHUNK_GAMES": "10", "JOBS_LEASE_SECONDS": "3"}
    first = celery_workers(queues=import_queue.queue("imports"), env=env)
    job_id = _upload(alice, distinct_games(800, seed=5)).json()["id"]
    wait_for(lambda: ImportJob.objects.get(pk=job_id).processed >= 30, first)
    first.kill()  # SIGKILL in the middle of a chunk: that chunk's transaction rolls back
    job = ImportJob.objects.get(pk=job_id)
    assert job.status == "running" and 30 <= job.processed < 800, "finished before the kill"
    assert Game.objects.filter(imported=True).count() == job.processed  # chunks are whole
    # The sweep (beat) gives the silent job's slice back and sends it again; a new worker
    # resumes after the last chunk.
    time.sleep(LEASE_SECONDS + 1)
    assert core_jobs.sweep()["lost"] == 1
    second = celery_workers(queues=import_queue.queue("imports"), env=env, purge=False)
    job = wait_for(lambda: _finished(job_id), second, timeout=120)
    assert (job.status, job.processed, job.stored, job.duplicates) == ("done", 800, 800, 0)
    assert [entry["game"] for entry in job.report] == list(range(1, 801))
    assert Game.objects.filter(imported=True).count() == 800
    _no_game_twice()
