"""Game messages over the API: between the two players only, plain text, rate-limited,
told to the recipient (stream event, notification, e-mail); reports and hiding."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from accounts import services as accounts
from chat import services
from chat.models import Message, MessageReport
from games import services as games
from notifications.models import EmailState, Kind, Notification
from notifications.services import deliver_email, mark_read
from stream.models import Event

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def game(alice: Any, bob: Any) -> Any:
    return games.start_game(white=alice.user, black=bob.user)


def url(game: Any, *rest: Any) -> str:
    return "/".join([f"/api/v1/games/{game.pk}/messages", *map(str, rest)])


def send(player: Any, game: Any, text: str) -> Any:
    return player.client.post(url(game), {"text": text}, format="json")


def test_players_exchange_messages_oldest_first(alice, bob, game) -> None:
    first = send(alice, game, "  Good luck!  ")
    assert first.status_code == 201, first.json()
    assert first.json()["text"] == "Good luck!"  # surrounding spaces go
    assert first.json()["author"] == "alice" and first.json()["game"] == game.pk
    assert send(bob, game, "Спасибо, и тебе 🙂").status_code == 201
    for player in (alice, bob):
        answer = player.client.get(url(game))
        assert answer.status_code == 200
        assert [(m["author"], m["text"]) for m in answer.json()] == [
            ("alice", "Good luck!"),
            ("bob", "Спасибо, и тебе 🙂"),
        ]
    # ?after= gives only the newer ones (the page's script polls with it).
    newer = alice.client.get(url(game), {"after": first.json()["id"]}).json()
    assert [m["author"] for m in newer] == ["bob"]


def test_strangers_and_visitors_are_refused(alice, stranger, game, api) -> None:
    send(alice, game, "hello")
    for answer in (stranger.client.get(url(game)), send(stranger, game, "hi there")):
        assert answer.status_code == 403
        assert answer.json()["code"] == "not_a_player"
    assert api.get(url(game)).status_code == 401
    assert api.post(url(game), {"text": "x"}, format="json").status_code == 401
    assert Message.objects.count() == 1
    assert alice.client.get("/api/v1/games/999999/messages").json()["code"] == "not_found"


def test_staff_read_every_message_hidden_ones_marked_but_cannot_write(
    alice, bob, make_player, game
) -> None:
    root = make_player("root")
    User.objects.filter(pk=root.user.pk).update(is_staff=True)
    send(alice, game, "fine")
    send(bob, game, "rude words")
    rude = Message.objects.get(text="rude words")
    services.hide_messages(messages=Message.objects.filter(pk=rude.pk), by=root.user)
    seen = root.client.get(url(game)).json()
    assert [(m["text"], m["hidden"]) for m in seen] == [("fine", False), ("rude words", True)]
    # The players no longer see it, its author included.
    for player in (alice, bob):
        assert [m["text"] for m in player.client.get(url(game)).json()] == ["fine"]
    assert send(root, game, "I am staff").json()["code"] == "not_a_player"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "x" * 501,
        "line one\nline two",
        "bell\x07",
        "right\u202eto left",
        "zero\u200bwidth",
    ],
)
def test_bad_texts_are_refused_naming_the_field(alice, game, text) -> None:
    answer = send(alice, game, text)
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "invalid" and list(body["fields"]) == ["text"]
    assert Message.objects.count() == 0


def test_a_body_without_text_or_with_a_wrong_type_is_a_400(alice, game) -> None:
    for body in ({}, {"text": None}, {"text": ["a"]}, {"text": {"a": 1}}):
        answer = alice.client.post(url(game), body, format="json")
        assert answer.status_code == 400, body
        assert answer.json()["code"] == "invalid"


def test_five_hundred_characters_are_allowed(alice, game) -> None:
    assert send(alice, game, "é" * 500).status_code == 201


def test_messages_are_rate_limited_per_player(alice, bob, game, settings) -> None:
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "messages": "3/minute"}
    assert [send(alice, game, f"m{n}").status_code for n in range(4)] == [201, 201, 201, 429]
    refused = send(alice, game, "again")
    assert refused.json()["code"] == "throttled" and "Retry-After" in refused.headers
    assert send(bob, game, "my own allowance").status_code == 201  # per player
    assert alice.client.get(url(game)).status_code == 200  # reading is not counted


def test_a_blocked_player_cannot_message(alice, bob, game) -> None:
    accounts.block(blocker=bob.user, blocked=alice.user)
    for player in (alice, bob):  # either way: the blocker does not write to them either
        answer = send(player, game, "hello?")
        assert answer.status_code == 403 and answer.json()["code"] == "blocked"
    accounts.unblock(blocker=bob.user, blocked=alice.user)
    assert send(alice, game, "hello!").status_code == 201


def test_a_message_is_published_on_both_players_streams(alice, bob, game) -> None:
    message = send(alice, game, "ping").json()
    events = Event.objects.filter(type=Event.Type.MESSAGE)
    assert sorted(events.values_list("user__username", flat=True)) == ["alice", "bob"]
    payload = events.get(user=bob.user).payload
    assert payload["message"] == message
    assert payload["game"]["id"] == game.pk and payload["game"]["color"] == "black"


def test_the_recipient_is_notified_once_until_read_and_emailed(alice, bob, game) -> None:
    User.objects.filter(pk=bob.user.pk).update(email="bob@example.org")
    send(alice, game, "first")
    send(alice, game, "second")  # unread: no second notification, no second e-mail
    told = Notification.objects.filter(kind=Kind.MESSAGE)
    assert list(told.values_list("user__username", flat=True)) == ["bob"]
    notification = told.get()
    assert notification.message == f"New message in game #{game.pk} from alice."
    assert notification.url == f"/games/{game.pk}/#messages"
    assert notification.email_state == EmailState.PENDING
    assert deliver_email(notification_id=notification.pk) == "sent"
    assert len(mail.outbox) == 1
    assert f"New message in game #{game.pk} from alice." in mail.outbox[0].body
    mark_read(user=bob.user)
    send(alice, game, "third")
    assert told.count() == 2


def test_reports_reach_staff_once_per_player(alice, bob, stranger, game) -> None:
    message = send(alice, game, "you are bad").json()
    report_url = url(game, message["id"], "report")
    first = bob.client.post(report_url, {"reason": "insult"}, format="json")
    assert first.status_code == 201, first.json()
    assert first.json()["message"] == message["id"] and first.json()["reason"] == "insult"
    assert bob.client.post(report_url, {}, format="json").status_code == 200  # already
    assert MessageReport.objects.get().reporter == bob.user
    own = alice.client.post(report_url, {}, format="json")
    assert own.status_code == 409 and own.json()["code"] == "own_message"
    assert stranger.client.post(report_url, {}, format="json").json()["code"] == "not_a_player"
    bad = bob.client.post(report_url, {"reason": "\x00"}, format="json")
    assert bad.status_code == 400
    assert bob.client.post(url(game, 999999, "report"), {}, format="json").status_code == 404


def test_a_hidden_message_cannot_be_reported_by_players(alice, bob, make_player, game) -> None:
    root = make_player("root")
    message = services.post_message(game=game, author=alice.user, text="spam")
    services.hide_messages(messages=Message.objects.all(), by=root.user)
    answer = bob.client.post(url(game, message.pk, "report"), {}, format="json")
    assert answer.status_code == 404
    services.show_messages(messages=Message.objects.all())
    assert bob.client.post(url(game, message.pk, "report"), {}, format="json").status_code == 201


def test_a_message_of_another_game_is_not_found_here(alice, bob, game) -> None:
    other = games.start_game(white=bob.user, black=alice.user)
    message = services.post_message(game=other, author=alice.user, text="elsewhere")
    assert bob.client.post(url(game, message.pk, "report"), {}, format="json").status_code == 404


def test_the_schema_documents_the_message_endpoints(api) -> None:
    schema = api.get("/api/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    messages = schema["paths"]["/api/v1/games/{game_id}/messages"]
    assert {"get", "post"} <= set(messages)
    assert {"201", "400", "401", "403", "404", "429"} <= set(messages["post"]["responses"])
    report = schema["paths"]["/api/v1/games/{game_id}/messages/{message_id}/report"]["post"]
    assert {"200", "201", "403", "404", "409"} <= set(report["responses"])
    block = schema["paths"]["/api/v1/players/{username}/block"]
    assert {"post", "delete"} <= set(block)
