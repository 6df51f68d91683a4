"""Notifications: what is stored, what is emailed (batched, digest), and what a
failing mail server does (nothing lost, nothing sent twice, bounded retries)."""

from __future__ import annotations

import datetime as dt
import socket
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.models import Profile
from clocks.timecontrol import TimeControl
from games import services as games
from games import timekeeping as clocks
from games.models import Game
from notifications import services
from notifications.models import EmailState, Kind, Notification
from notifications.tasks import send_notification_email

pytestmark = pytest.mark.django_db
User = get_user_model()


def with_email(*players: Any) -> None:
    for player in players:
        User.objects.filter(pk=player.user.pk).update(email=f"{player.username}@example.org")
        player.user.refresh_from_db()


def play(game: Game, player: Any, text: str) -> Game:
    game, _ = games.play_turn(game=game, player=player.user, text=text, ply=game.ply + 1)
    return game


def emails_of(user: Any, kind: str) -> list[str]:
    return list(
        Notification.objects.filter(user=user, kind=kind)
        .order_by("created", "pk")
        .values_list("email_state", flat=True)
    )


def test_your_turn_emails_are_batched_per_game_within_n_hours(alice, bob, settings) -> None:
    settings.NOTIFICATIONS_TURN_EMAIL_HOURS = 6
    with_email(alice, bob)
    game = games.start_game(white=alice.user, black=bob.user)
    other = games.start_game(white=alice.user, black=bob.user)
    game = play(play(play(game, alice, "D2L"), bob, "D6L"), alice, "D2P")
    play(other, alice, "D2L")
    # Bob's turn three times: the first game's first email goes, its next one is batched;
    # the other game has its own email.
    assert emails_of(bob.user, Kind.YOUR_TURN) == ["pending", "batched", "pending"]
    # Six hours later the next your-turn of that game is emailed again.
    Notification.objects.filter(user=bob.user).update(
        created=timezone.now() - dt.timedelta(hours=7)
    )
    play(game, bob, "D6P")
    game.refresh_from_db()
    play(game, alice, "D2-D3,D3L")
    assert emails_of(bob.user, Kind.YOUR_TURN)[-1] == "pending"
    # Everything is on the site, whatever was emailed.
    assert Notification.objects.filter(user=bob.user, kind=Kind.YOUR_TURN).count() == 4


def test_daily_digest_sends_one_email_for_all_waiting_turns(alice, bob, make_player) -> None:
    carol = make_player("carol")
    with_email(alice, bob, carol)
    Profile.objects.filter(user=bob.user).update(turn_email="digest")
    play(games.start_game(white=alice.user, black=bob.user), alice, "D2L")
    play(games.start_game(white=carol.user, black=bob.user), carol, "D2L")
    assert emails_of(bob.user, Kind.YOUR_TURN) == ["digest", "digest"]
    assert services.users_with_digest() == [bob.user.pk]
    assert services.deliver_digest(user_id=bob.user.pk) == 2
    assert len(mail.outbox) == 1
    body = mail.outbox[0].body
    assert "against alice" in body and "against carol" in body
    # A second digest run (two beat schedulers, a redelivered task) sends nothing.
    assert services.deliver_digest(user_id=bob.user.pk) == 0
    assert len(mail.outbox) == 1
    assert emails_of(bob.user, Kind.YOUR_TURN) == ["sent", "sent"]


def test_an_email_is_sent_once_in_the_players_language_with_an_unsubscribe_link(alice, bob) -> None:
    with_email(alice, bob)
    Profile.objects.filter(user=bob.user).update(language="eo")
    play(games.start_game(white=alice.user, black=bob.user), alice, "D2L")
    notification = Notification.objects.get(user=bob.user, kind=Kind.YOUR_TURN)
    assert services.deliver_email(notification_id=notification.pk) == "sent"
    assert services.deliver_email(notification_id=notification.pk) == "not sent: sent"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["bob@example.org"]
    assert message.extra_headers["Content-Language"] == "eo"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert link in message.body and "/games/" in message.body
    # Opening the link only asks (mail scanners open every link): still subscribed.
    path = link.split("127.0.0.1:8000", 1)[1]
    asked = Client().get(path)
    assert asked.status_code == 200 and b'method="post"' in asked.content
    assert Profile.objects.get(user=bob.user).email_notifications is True
    # The button (or the mail client's one-click POST), no login: emails are off and
    # nothing waiting is sent any more.
    assert Client().post(path).status_code == 200
    profile = Profile.objects.get(user=bob.user)
    assert profile.email_notifications is False
    game = games.start_game(white=bob.user, black=alice.user)
    play(game, bob, "D2L")
    assert emails_of(alice.user, Kind.YOUR_TURN)[-1] == "pending"  # Alice still gets hers
    play(Game.objects.get(pk=game.pk), alice, "D6L")
    assert emails_of(bob.user, Kind.YOUR_TURN)[-1] == "none"
    # Mail clients POST to it (RFC 8058); a forged token is refused.
    assert Client().post(path).status_code == 200
    assert Client().get("/notifications/unsubscribe/forged:token/").status_code == 400


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_failing_mail_server_loses_no_turn_and_retries_a_bounded_number_of_times(
    alice, bob, settings
) -> None:
    # A real SMTP backend pointed at a port nobody listens on: connection refused.
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", closed_port(), 2
    with_email(alice, bob)
    game = play(games.start_game(white=alice.user, black=bob.user), alice, "D2L")
    assert game.ply == 1  # the turn is stored whatever the mail server does
    notification = Notification.objects.get(user=bob.user, kind=Kind.YOUR_TURN)
    with pytest.raises(OSError):
        services.deliver_email(notification_id=notification.pk)
    notification.refresh_from_db()
    assert (notification.email_state, notification.email_attempts) == ("pending", 1)
    # The task retries (eagerly here) and gives up after max_retries: marked failed.
    assert send_notification_email.apply(args=[notification.pk]).get() == "failed"
    notification.refresh_from_db()
    assert notification.email_state == EmailState.FAILED
    assert notification.email_attempts == 1 + 1 + send_notification_email.max_retries
    # The mail server is back: a failed email is not resent by a stray redelivery.
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert send_notification_email.apply(args=[notification.pk]).get() == "not sent: failed"
    assert mail.outbox == []


def test_a_sender_that_died_mid_send_is_released_later(alice, bob) -> None:
    with_email(alice, bob)
    play(games.start_game(white=alice.user, black=bob.user), alice, "D2L")
    notification = Notification.objects.get(user=bob.user)
    Notification.objects.filter(pk=notification.pk).update(
        email_state=EmailState.SENDING, email_claimed=timezone.now() - dt.timedelta(hours=1)
    )
    assert services.release_stale_claims() == [notification.pk]
    assert services.deliver_email(notification_id=notification.pk) == "sent"


def test_an_email_whose_message_was_lost_is_queued_again_and_sent_once(alice, bob) -> None:
    # A web node killed after the turn's commit, before its message left: the row is
    # pending, never attempted.  Fresh, it may only be waiting in the queue: left alone.
    with_email(alice, bob)
    play(games.start_game(white=alice.user, black=bob.user), alice, "D2L")
    notification = Notification.objects.get(user=bob.user)
    assert notification.email_state == EmailState.PENDING
    assert services.release_stale_claims() == []
    Notification.objects.filter(pk=notification.pk).update(
        created=timezone.now() - services.STALE_CLAIM - dt.timedelta(minutes=1)
    )
    assert services.release_stale_claims() == [notification.pk]
    assert services.deliver_email(notification_id=notification.pk) == "sent"
    # The original message arrives late after all: nothing is sent twice.
    assert services.deliver_email(notification_id=notification.pk) == "not sent: sent"
    assert services.release_stale_claims() == []
    assert len(mail.outbox) == 1
    # Its id is the notification's: a copy re-sent after a crash is the same message.
    assert (
        mail.outbox[0].extra_headers["Message-ID"] == f"<notification.{notification.pk}@127.0.0.1>"
    )


def test_game_events_notify_the_right_people(alice, bob, stranger) -> None:
    games.create_challenge(
        creator=alice.user, opponent="bob", time_control=TimeControl.bank(10, increment_hours=36)
    )
    challenge = Notification.objects.get(user=bob.user, kind=Kind.CHALLENGE)
    assert challenge.message == "alice challenges you to a game (10 days + 36 hours per turn)."
    games.create_challenge(creator=alice.user)  # open: addressed to nobody
    assert Notification.objects.filter(kind=Kind.CHALLENGE).count() == 1
    game = games.start_game(white=alice.user, black=bob.user)
    assert Notification.objects.get(user=alice.user, kind=Kind.YOUR_TURN).game == game
    games.resign(game=game, player=bob.user)
    over = Notification.objects.get(user=alice.user, kind=Kind.GAME_OVER)
    assert over.message == f"Game #{game.pk} against bob is over: 1-0 (Resignation)."
    assert not Notification.objects.filter(user=stranger.user).exists()


def test_notify_is_the_entry_point_for_tournaments_and_dedupes(alice) -> None:
    first = services.notify(
        user=alice.user,
        kind=Kind.ROUND_PAIRED,
        params={"round": 2, "tournament": "Autumn Swiss", "opponent": "bob", "game": 7},
        url="/tournaments/1/",
        dedupe_key="round:1:2",
    )
    assert first is not None
    assert first.message == "Round 2 of Autumn Swiss is paired: you play bob (game #7)."
    again = services.notify(user=alice.user, kind=Kind.ROUND_PAIRED, dedupe_key="round:1:2")
    assert again is None
    assert Notification.objects.filter(user=alice.user).count() == 1
    started = services.notify(user=alice.user, kind=Kind.TOURNAMENT_STARTED, params={})
    assert started.message == "The tournament ? has started."  # a missing value never crashes
    with pytest.raises(ValueError, match="unknown notification kind"):
        services.notify(user=alice.user, kind="party")


def test_low_time_warning_once_per_turn_even_from_two_sweeps(alice, bob) -> None:
    game = games.start_game(white=alice.user, black=bob.user, time_control=TimeControl.per_turn(3))
    near = game.deadline - dt.timedelta(hours=23)
    assert clocks.sweep(now=game.deadline - dt.timedelta(hours=25)).warned == 0
    assert clocks.sweep(now=near).warned == 1
    assert clocks.sweep(now=near + dt.timedelta(minutes=1)).warned == 0
    warning = Notification.objects.get(user=alice.user, kind=Kind.LOW_TIME)
    assert "Less than 24 hours" in warning.message
    # A one-day-per-turn game is not warned: the whole turn is under 24 hours.
    quick = games.start_game(white=alice.user, black=bob.user, time_control=TimeControl.per_turn(1))
    assert clocks.sweep(now=quick.deadline - dt.timedelta(hours=2)).warned == 0


def test_notifications_api_and_page(alice, bob, api) -> None:
    play(games.start_game(white=alice.user, black=bob.user), alice, "D2L")
    assert api.get("/api/v1/notifications").status_code == 401
    listed = bob.client.get("/api/v1/notifications")
    assert listed.status_code == 200
    [item] = listed.json()["results"]
    assert item["kind"] == "your_turn" and item["unread"] is True
    assert item["message"].startswith("It is your turn in game #")
    assert bob.client.get("/api/v1/notifications?unread=maybe").status_code == 400
    marked = bob.client.post("/api/v1/notifications/read", {}, format="json")
    assert marked.json() == {"marked": 1, "unread": 0}
    assert bob.client.get("/api/v1/notifications?unread=true").json()["results"] == []
    assert alice.client.get("/api/v1/notifications").json()["results"][0]["kind"] == "your_turn"
    bad = bob.client.post("/api/v1/notifications/read", {"ids": ["x"]}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"

    browser = Client()
    assert browser.get("/notifications/").status_code == 302  # log in first
    browser.force_login(bob.user)
    page = browser.get("/notifications/")
    assert page.status_code == 200
    assert "It is your turn in game #" in page.content.decode()


def test_context_processor_counts_unread_notifications_for_players_only(alice, rf) -> None:
    from django.contrib.auth.models import AnonymousUser

    from notifications.context_processors import unread

    services.notify(user=alice.user, kind=Kind.TOURNAMENT_STARTED, params={"tournament": "Cup"})
    request = rf.get("/")
    request.user = alice.user
    assert unread(request) == {"unread_notifications": 1}
    request.user = AnonymousUser()
    assert unread(request) == {}


def test_emails_are_written_in_the_players_language(alice, bob) -> None:
    import re
    from pathlib import Path

    if (
        not Path(__file__)
        .resolve()
        .parents[1]
        .joinpath("locale", "ru", "LC_MESSAGES", "django.mo")
        .exists()
    ):
        pytest.skip("translations not compiled (python3 dev.py test compiles them)")
    with_email(alice, bob)
    Profile.objects.filter(user=bob.user).update(language="ru")
    play(games.start_game(white=alice.user, black=bob.user), alice, "D2L")
    notification = Notification.objects.get(user=bob.user, kind=Kind.YOUR_TURN)
    services.deliver_email(notification_id=notification.pk)
    [message] = mail.outbox
    assert "It is your turn" not in message.body and "Your turn" not in message.subject
    assert re.search("[а-яА-Я]{4,}", message.subject + message.body), message.body
    # The site keeps showing it in the reader's language (English here).
    assert notification.message.startswith("It is your turn in game #")
