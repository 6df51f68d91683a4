"""Uploads to the .agn import are bounded: by the view (a clear message) and, before
that, while the request arrives (config/uploads.py); nothing is stored or queued either way."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from archive import imports, services
from archive.models import ImportJob
from games import services as game_services
from games.models import Game

pytestmark = pytest.mark.django_db


def test_import_upload_is_size_limited_and_nothing_is_stored(alice, settings) -> None:
    settings.IMPORT_MAX_BYTES = 1_000
    browser = Client()
    browser.force_login(alice.user)
    record = services.game_agn(game_services.start_game(white=alice.user, black=alice.user).pk)
    big = SimpleUploadedFile("big.agn", ((record + "\n") * 40).encode(), content_type="text/plain")
    before = Game.objects.count()
    page = browser.post("/import/", {"file": big})
    assert page.status_code == 200
    assert "larger than" in page.content.decode()
    assert Game.objects.count() == before and not ImportJob.objects.exists()


def test_an_upload_past_the_limit_is_dropped_while_it_arrives(alice, settings) -> None:
    """No oversized file reaches the view (nor memory, nor a temporary file)."""
    settings.UPLOAD_MAX_BYTES = 2_000
    browser = Client()
    browser.force_login(alice.user)
    game = game_services.start_game(white=alice.user, black=alice.user)
    record = services.game_agn(game_services.resign(game=game, player=alice.user).pk)
    before = Game.objects.count()
    big = SimpleUploadedFile("big.agn", ((record + "\n") * 200).encode())
    page = browser.post("/import/", {"file": big})
    assert page.status_code == 200 and 'name="file"' in page.content.decode()
    assert Game.objects.count() == before  # refused: the form saw no file
    assert not ImportJob.objects.exists()
    small = SimpleUploadedFile("small.agn", record.encode())
    assert small.size < 2_000
    assert browser.post("/import/", {"file": small}).status_code == 302
    imports.run_job(job_id=ImportJob.objects.get().pk)  # what the worker does
    assert Game.objects.count() == before + 1
