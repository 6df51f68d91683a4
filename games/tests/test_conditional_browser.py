"""Conditional turns in a real browser (the Playwright pattern of web/tests/test_web_browser.py).

Ann, waiting for Ben's turn, clicks a line on the conditional board (Ben's D6L, her
D2P), sees it as a tree on the game page; Ben's D6L brings her reply at once.  Then she
prepares another line and deletes it.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import ConditionalLines, Turn
from web.tests.test_web_browser import Person

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_lines_clicked_on_the_board_are_played_when_the_opponent_plays(
    live_server,
    browser,
) -> None:
    base = live_server.url
    ann, ben = Person(browser, base), Person(browser, base)
    ann.sign_up("ann")
    ben.sign_up("ben")
    users = get_user_model().objects
    game = services.start_game(white=users.get(username="ann"), black=users.get(username="ben"))
    services.play_turn(game=game, player=game.white, text="D2L", ply=1)
    game_url = f"/games/{game.pk}/"

    ann.go(game_url)
    assert "None" in ann.page.inner_text("#conditional")
    ann.page.click("#conditional-edit")
    ann.page.wait_for_url(re.compile(r"/conditional/$"))
    assert "opponent" in ann.page.inner_text("#line-status")
    ann.click_turn("No move", "D6", "Add a leg")  # Ben's turn…
    assert ann.page.input_value("#turn-input") == "D6L"
    ann.page.click("#send-turn")
    ann.page.wait_for_url(re.compile(r"\?line=D6L$"))
    assert "reply" in ann.page.inner_text("#line-status")
    ann.click_turn("No move", "D2", "Add a pincer")  # …and her reply.
    ann.page.click("#send-turn")
    ann.page.wait_for_url(re.compile(r"\?line=D6L\+D2P$"))
    ann.page.click("#conditional-add")
    ann.page.wait_for_load_state()
    assert "Line added" in ann.page.inner_text(".messages")
    ann.go(game_url)
    tree = ann.page.inner_text("#conditional .conditional-tree")
    assert "2. D6L" in tree and "3. D2P" in tree

    ben.go(game_url)
    ben.click_turn("No move", "D6", "Add a leg")
    ben.send("D6L")
    # The answer to his turn already has Ann's reply: it is his turn again.
    assert "D2P" in ben.page.inner_text(".turns")
    assert ben.page.locator("#play-form").count() == 1
    reply = Turn.objects.get(game=game, ply=3)
    assert (reply.text, reply.automatic) == ("D2P", True)
    assert not ConditionalLines.objects.exists()

    # Ann waits again: one more line, typed into the address this time, then deleted.
    ann.go(f"/games/{game.pk}/conditional/?line=D6P+C1")
    assert "opponent" in ann.page.inner_text("#line-status")
    ann.page.click("#conditional-add")
    ann.page.wait_for_load_state()
    assert ConditionalLines.objects.get(game=game).tree == {"D6P": {"reply": "C1", "next": {}}}
    ann.go(game_url)
    ann.page.click("#conditional-delete")
    ann.page.wait_for_load_state()
    assert "deleted" in ann.page.inner_text(".messages")
    assert not ConditionalLines.objects.exists()
    assert ann.errors == [] and ben.errors == []
