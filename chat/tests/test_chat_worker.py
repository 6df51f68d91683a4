"""A message's e-mail on a real Celery worker process: queued at the message's commit,
sent once by the worker in the recipient's language."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from accounts.models import Profile
from core.testing import wait_for
from games import services as games
from notifications.models import EmailState, Kind, Notification

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_worker_emails_the_recipient_of_a_message(celery_worker_process, alice, bob) -> None:
    get_user_model().objects.filter(pk=bob.user.pk).update(email="bob@example.org")
    Profile.objects.filter(user=bob.user).update(language="eo")
    game = games.start_game(white=alice.user, black=bob.user)
    sent = alice.client.post(
        f"/api/v1/games/{game.pk}/messages", {"text": "Saluton!"}, format="json"
    )
    assert sent.status_code == 201
    told = Notification.objects.filter(user=bob.user, kind=Kind.MESSAGE)
    wait_for(lambda: told.filter(email_state=EmailState.SENT).exists(), celery_worker_process)
    assert told.count() == 1
    if settings.CELERY_BROKER_URL.startswith("redis"):  # this worker is the only consumer
        log = celery_worker_process.log()
        assert "To: bob@example.org" in log, log[-3000:]
        assert f"Nova mesaĝo en partio n-ro {game.pk} de alice." in log, log[-3000:]
