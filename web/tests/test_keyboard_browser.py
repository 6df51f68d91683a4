"""Playing by keyboard only on the game page (issue #15, item 10), in Chromium.

Tab reaches the board (one stop, on a legal choice), the arrow keys go from cell to
cell the way they point on the screen, Enter and Space choose, Tab reaches the limb
buttons and Send.  No click and no focus() set by the test: only key presses.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Game
from web.tests.test_web_browser import Person

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _focused(page: Any) -> dict[str, str]:
    return page.evaluate(
        """() => {
            const e = document.activeElement;
            return {cell: e.getAttribute('data-cell') || '', text: (e.textContent || '').trim(),
                    id: e.id || ''};
        }"""
    )


def _tab_to(page: Any, wanted: Any, most: int = 60) -> dict[str, str]:
    """Press Tab until the focused element is `wanted` (a predicate); fail after `most`."""
    for _ in range(most):
        page.keyboard.press("Tab")
        focused = _focused(page)
        if wanted(focused):
            return focused
    raise AssertionError(f"Tab never reached it; last: {focused}")


def _arrow_to(page: Any, key: str, cell: str) -> None:
    page.keyboard.press(key)
    assert _focused(page)["cell"] == cell


def test_a_turn_with_a_move_played_by_keyboard_only(live_server: Any, browser: Any) -> None:
    base = live_server.url
    ann = Person(browser, base)
    ann.sign_up("ann")
    users = get_user_model().objects
    bob = users.create_user("bob")
    game = services.start_game(
        white=users.get(username="ann"), black=bob, start_position="C3W11,E5B11 w 0-0"
    )
    ann.go(f"/games/{game.pk}/")
    page = ann.page

    # The board is one Tab stop, on a cell that is a legal choice: C3, the only walker.
    board_stops = page.locator("#board-wrap svg.board g.cell[tabindex='0']").count()
    assert board_stops == 1
    assert _tab_to(page, lambda f: bool(f["cell"]))["cell"] == "C3"
    page.keyboard.press("Enter")  # C3 walks...
    assert "from" in (page.get_attribute("g.cell[data-cell='C3']", "class") or "")
    _arrow_to(page, "ArrowUp", "C4")  # ...one step up the screen (White's view)...
    page.keyboard.press(" ")  # ...to C4
    # Growing: the adaptoid on C4 gets a leg (C4 is focused; Enter offers leg/pincer).
    page.keyboard.press("Enter")
    _tab_to(page, lambda f: f["text"] == "Add a leg")
    page.keyboard.press("Enter")
    assert page.input_value("#turn-input") == "C3-C4,C4L"
    # The assembled turn moves the focus to Send.
    assert _focused(page)["id"] == "send-turn"
    # A key press, unlike a click, does not wait for the navigation it starts.
    with page.expect_navigation():
        page.keyboard.press("Enter")
    # The site's notices (the chat panel of the game page is a .messages too).
    assert "sent" in page.inner_text("body > .messages")
    game.refresh_from_db()
    assert game.ply == 1 and game.turns.get(ply=1).text == "C3-C4,C4L"
    assert game.status == Game.Status.ACTIVE

    # Black's board is turned: there, "up" on the screen is down the rows.
    game2 = services.start_game(
        white=bob, black=users.get(username="ann"), start_position="C3W11,E5B11 b 0-0"
    )
    ann.go(f"/games/{game2.pk}/")
    assert _tab_to(page, lambda f: bool(f["cell"]))["cell"] == "E5"
    _arrow_to(page, "ArrowUp", "E4")
    _arrow_to(page, "ArrowDown", "E5")
    assert ann.errors == []
    ann.context.close()
