"""In a real browser (Playwright and Debian's Chromium, as web/tests/test_web_browser.py):
two players of a game exchange messages on the game page, each seeing the other's
message arrive without reloading."""

from __future__ import annotations

from typing import Any

import pytest

from accounts import services as accounts
from games import services as games

PASSWORD = "a-long-browser-password-7"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Player:
    """One player logged in in their own browser context, collecting console errors."""

    def __init__(self, browser: Any, base: str, name: str) -> None:
        self.base = base
        self.context = browser.new_context()
        self.context.set_default_timeout(15_000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(base + "/accounts/login/")
        self.page.fill("#id_username", name)
        self.page.fill("#id_password", PASSWORD)
        self.page.click("button[type=submit].primary")
        self.page.wait_for_url(base + "/")

    def open_game(self, game_id: int) -> None:
        self.page.goto(f"{self.base}/games/{game_id}/")
        # A mark that a reload would wipe: the message must come without one.
        self.page.evaluate("window.notReloaded = true")

    def write(self, text: str) -> None:
        self.page.fill("#message-text", text)
        self.page.click("#message-form button[type=submit]")
        self.page.wait_for_url("**/games/*/#messages")

    def sees(self, author: str, text: str) -> None:
        item = self.page.locator("#message-list li", has_text=text)
        item.wait_for()  # the panel fetches every few seconds
        assert item.locator("strong").inner_text() == author

    def was_not_reloaded(self) -> bool:
        return bool(self.page.evaluate("window.notReloaded === true"))


def test_two_players_exchange_messages_live(live_server, browser) -> None:
    ann_user = accounts.register_account(username="ann", password=PASSWORD)
    ben_user = accounts.register_account(username="ben", password=PASSWORD)
    game = games.start_game(white=ann_user, black=ben_user)
    ann = Player(browser, live_server.url, "ann")
    ben = Player(browser, live_server.url, "ben")
    ann.open_game(game.pk)
    ben.open_game(game.pk)
    assert ben.page.locator("#no-messages").is_visible()

    ann.write("Good luck, <b>Ben</b>!")
    ann.sees("ann", "Good luck, <b>Ben</b>!")  # after the form's redirect
    ben.sees("ann", "Good luck, <b>Ben</b>!")  # live: plain text, not markup
    assert ben.was_not_reloaded()
    assert ben.page.locator("#no-messages").is_hidden()
    # The new message can be reported from the live list too.
    assert ben.page.locator("#message-list li form button", has_text="Report").count() == 1

    ann.page.evaluate("window.notReloaded = true")
    ben.write("Спасибо! Have fun.")
    ann.sees("ben", "Спасибо! Have fun.")
    assert ann.was_not_reloaded()
    assert ann.errors == [] and ben.errors == []


def test_a_message_being_typed_survives_the_opponents_turn(live_server, browser) -> None:
    # The game page swaps its game part in place when a turn arrives (games/game.js): the
    # messages panel is kept as it is, with what is being typed and its live script.
    ann_user = accounts.register_account(username="ann", password=PASSWORD)
    ben_user = accounts.register_account(username="ben", password=PASSWORD)
    game = games.start_game(white=ann_user, black=ben_user)
    ann = Player(browser, live_server.url, "ann")
    ben = Player(browser, live_server.url, "ben")
    ben.open_game(game.pk)
    ben.page.fill("#message-text", "Half a thought")

    games.play_turn(game=game, player=ann_user, text="D2L", ply=1)
    ben.page.locator("#game-live[data-ply='1']").wait_for(state="attached")
    ben.page.locator("#board-wrap [data-cell]").first.wait_for()
    assert ben.was_not_reloaded()
    assert ben.page.input_value("#message-text") == "Half a thought"

    ann.open_game(game.pk)
    ben.page.fill("#message-text", "Half a thought, now whole")
    ben.page.click("#message-form button[type=submit]")
    ann.sees("ben", "Half a thought, now whole")
    assert ann.errors == [] and ben.errors == []


def test_a_blocked_player_can_no_longer_write(live_server, browser) -> None:
    ann_user = accounts.register_account(username="ann", password=PASSWORD)
    ben_user = accounts.register_account(username="ben", password=PASSWORD)
    game = games.start_game(white=ann_user, black=ben_user)
    ben = Player(browser, live_server.url, "ben")
    ben.page.goto(f"{live_server.url}/players/ann/")
    ben.page.click("button:has-text('Block this player')")
    ben.page.goto(f"{live_server.url}/settings/blocks/")
    assert ben.page.locator("main", has_text="ann").count() == 1

    # Ann, blocked, finds a note where the form was; the API refuses her too.
    ann = Player(browser, live_server.url, "ann")
    ann.open_game(game.pk)
    assert ann.page.locator("#message-form").count() == 0
    assert "one of you has blocked the other" in ann.page.inner_text("#messages-blocked")
    ben.open_game(game.pk)
    assert ben.page.locator("#message-form").count() == 0
    assert ann.errors == [] and ben.errors == []
