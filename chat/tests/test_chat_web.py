"""The game page's message panel (chat/_messages.html and chat.views) and the admin's
moderation: reports with their message, game and players; the hide action."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from chat import services
from chat.models import Message, MessageReport
from games import services as games

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def game(alice: Any, bob: Any) -> Any:
    return games.start_game(white=alice.user, black=bob.user)


def browser(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def page(client: Client, game: Any) -> str:
    return client.get(f"/games/{game.pk}/").content.decode()


def test_players_write_through_the_form_and_read_on_the_game_page(alice, bob, game) -> None:
    answer = browser(alice.user).post(f"/games/{game.pk}/messages/", {"text": "Hi <b>Bob</b>"})
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/#messages"
    html = page(browser(bob.user), game)
    assert 'id="message-form"' in html and "chat/chat.js" in html
    assert "Hi &lt;b&gt;Bob&lt;/b&gt;" in html  # plain text, escaped
    message = Message.objects.get()
    assert f"/games/{game.pk}/messages/{message.pk}/report/" in html  # Bob may report it
    assert f"/messages/{message.pk}/report/" not in page(browser(alice.user), game)  # own


def test_visitors_and_strangers_see_no_panel(alice, stranger, game) -> None:
    services.post_message(game=game, author=alice.user, text="a private word")
    for client in (browser(), browser(stranger.user)):
        html = page(client, game)
        assert "a private word" not in html and 'id="messages"' not in html
    refused = browser(stranger.user).get(f"/games/{game.pk}/messages/")
    assert refused.status_code == 403 and refused.json()["code"] == "not_a_player"
    browser(stranger.user).post(f"/games/{game.pk}/messages/", {"text": "let me in"})
    assert Message.objects.count() == 1


def test_the_panel_script_fetches_the_newer_messages(alice, bob, game) -> None:
    first = services.post_message(game=game, author=alice.user, text="one")
    services.post_message(game=game, author=bob.user, text="two")
    answer = browser(alice.user).get(f"/games/{game.pk}/messages/", {"after": first.pk})
    assert [(m["author"], m["text"]) for m in answer.json()["messages"]] == [("bob", "two")]


def test_a_refused_message_is_explained_on_the_page(alice, game, settings) -> None:
    client = browser(alice.user)
    shown = client.post(f"/games/{game.pk}/messages/", {"text": "tab\there"}, follow=True)
    assert "Control and invisible characters are not allowed: U+0009." in shown.content.decode()
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "messages": "2/minute"}
    for n in range(3):
        shown = client.post(f"/games/{game.pk}/messages/", {"text": f"n{n}"}, follow=True)
    assert "You are sending messages too fast" in shown.content.decode()
    # Every attempt counts, the refused one too (as over the API): n0 in, n1 and n2 not.
    assert list(Message.objects.values_list("text", flat=True)) == ["n0"]


def test_staff_see_hidden_messages_marked_and_players_do_not(alice, bob, make_player, game):
    root = make_player("root")
    User.objects.filter(pk=root.user.pk).update(is_staff=True, is_superuser=True)
    services.post_message(game=game, author=alice.user, text="shameful")
    services.hide_messages(messages=Message.objects.all(), by=root.user)
    assert "shameful" not in page(browser(bob.user), game)
    staff_page = page(browser(User.objects.get(pk=root.user.pk)), game)
    assert "shameful" in staff_page and "hidden by the moderators" in staff_page
    assert 'id="message-form"' not in staff_page  # staff read, they do not write


def test_a_report_from_the_page_reaches_the_admin_which_hides_the_message(
    alice, bob, make_player, game
) -> None:
    before = services.post_message(game=game, author=bob.user, text="hello there")
    message = services.post_message(game=game, author=alice.user, text="nasty words")
    shown = browser(bob.user).post(f"/games/{game.pk}/messages/{message.pk}/report/", follow=True)
    assert "the message is reported" in shown.content.decode()
    report = MessageReport.objects.get()
    root = make_player("root")
    User.objects.filter(pk=root.user.pk).update(is_staff=True, is_superuser=True)
    admin = browser(User.objects.get(pk=root.user.pk))
    listing = admin.get("/admin/chat/messagereport/").content.decode()
    assert "nasty words" in listing and "alice – bob" in listing
    detail = admin.get(f"/admin/chat/messagereport/{report.pk}/change/").content.decode()
    for shown_text in ("nasty words", "hello there", "alice – bob", f"#{game.pk}"):
        assert shown_text in detail, shown_text
    done = admin.post(
        "/admin/chat/messagereport/",
        {"action": "hide_reported", "_selected_action": [report.pk]},
        follow=True,
    )
    assert "1 messages hidden." in done.content.decode()
    message.refresh_from_db()
    before.refresh_from_db()
    assert message.hidden is not None and message.hidden_by_id == root.user.pk
    assert before.hidden is None
    assert "nasty words" not in page(browser(bob.user), game)
    admin.post("/admin/chat/message/", {"action": "show", "_selected_action": [message.pk]})
    message.refresh_from_db()
    assert message.hidden is None


@pytest.mark.parametrize("language", ["ru", "eo"])
def test_the_chat_catalogs_are_complete(language) -> None:
    from pathlib import Path

    from web.tests.test_web_i18n import entries

    po = Path(__file__).resolve().parents[1] / "locale" / language / "LC_MESSAGES" / "django.po"
    found = entries(po)
    assert len(found) > 30
    assert [msgid for msgid, strs, fuzzy in found if fuzzy or not all(strs)] == []


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("ru", ["Сообщения", "Ваше сообщение", "Отправить", "Пожаловаться"]),
        ("eo", ["Mesaĝoj", "Via mesaĝo", "Sendi", "Raporti"]),
    ],
)
def test_the_panel_and_the_blocks_page_come_out_in_the_language(
    alice, bob, game, language, words
) -> None:
    from accounts.models import Profile

    services.post_message(game=game, author=alice.user, text="hi")
    Profile.objects.filter(user=bob.user).update(language=language)
    client = browser(bob.user)
    client.cookies.load({"django_language": language})
    html = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in html, word
    blocks = client.get("/settings/blocks/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert {"ru": "Заблокированные игроки", "eo": "Blokitaj ludantoj"}[language] in blocks
