"""The game page's draw, abort, rematch and notes forms in a real browser (Playwright and
Debian's Chromium against a live server, as web/tests/test_web_browser.py)."""

from __future__ import annotations

import re

import pytest

from archive import services as archive_services
from games import services
from games.models import Game
from web.tests.test_web_browser import Person

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _user(name: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=name)


def test_draw_agreed_then_a_rematch_accepted_then_aborted_with_private_notes(
    live_server,
    browser,
) -> None:
    base = live_server.url
    ann, ben = Person(browser, base), Person(browser, base)
    ann.sign_up("ann")
    ben.sign_up("ben")
    game = services.start_game(white=_user("ann"), black=_user("ben"))
    game_url = f"/games/{game.pk}/"

    # Ann (to move) offers a draw; Ben sees it on his page and accepts.
    ann.go(game_url)
    ann.page.get_by_role("button", name="Offer a draw").click()
    ann.page.wait_for_load_state()
    assert "You offered a draw" in ann.page.inner_text(".messages")
    assert "lapses when you play" in ann.page.inner_text("#draw-offer")
    ben.go(game_url)
    assert "Your opponent offers a draw." in ben.page.inner_text("#draw-offer")
    ben.page.get_by_role("button", name="Accept the draw").click()
    ben.page.wait_for_load_state()
    status = ben.page.inner_text("#game-status")
    assert "1/2-1/2" in status and "Draw agreed" in status
    assert '[Termination "agreement"]' in archive_services.game_agn(game.pk)

    # Private notes beside the board: Ann's stay hers.
    ann.go(game_url)
    ann.page.fill("#notes-text", "Drawn too early.\nTry the pie next time.")
    ann.page.get_by_role("button", name="Save notes").click()
    ann.page.wait_for_load_state()
    assert ann.page.input_value("#notes-text") == "Drawn too early.\nTry the pie next time."
    ben.go(game_url)
    assert ben.page.input_value("#notes-text") == ""

    # Ben asks for a rematch; Ann accepts it on the same page and lands in the new game.
    ben.page.get_by_role("button", name="Rematch").click()
    ben.page.wait_for_load_state()
    assert "waiting for your opponent" in ben.page.inner_text("#rematch-offer")
    ann.go(game_url)
    assert "ben asks for a rematch." in ann.page.inner_text("#rematch-offer")
    ann.page.get_by_role("button", name="Accept the rematch").click()
    ann.page.wait_for_url(re.compile(r"/games/\d+/$"))
    rematch_url = ann.page.url.removeprefix(base)
    assert rematch_url != game_url
    rematch = Game.objects.get(pk=int(rematch_url.split("/")[2]))
    assert (rematch.white.username, rematch.black.username) == ("ben", "ann")  # swapped
    ben.go(game_url)
    assert "The rematch" in ben.page.inner_text("#rematch-offer")

    # Nobody has moved in the rematch: Ann calls it off.
    ann.page.get_by_role("button", name="Abort the game").click()
    ann.page.wait_for_load_state()
    assert "Aborted" in ann.page.inner_text("#game-status")
    assert ann.page.locator("#agreements button:has-text('Abort')").count() == 0
    assert ann.errors == [] and ben.errors == []
