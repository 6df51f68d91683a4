"""End to end in a real browser: Playwright drives Debian's Chromium against a live server.

Two players sign up in two browser contexts, challenge and accept, play turns by
clicking (one by keyboard, one an attack), replay the game, switch the language,
resign and download the archive, which must read back through the engine.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine import read_games

PASSWORD = "a-long-browser-password-7"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Person:
    """One player in their own browser context, collecting console errors."""

    def __init__(self, browser: Any, base: str, language: str = "en") -> None:
        self.base = base
        self.context = browser.new_context(locale=language, accept_downloads=True)
        self.context.set_default_timeout(10_000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def go(self, path: str) -> None:
        # A page waiting for the opponent reloads itself when they play (follow.js):
        # that reload may cut across this navigation once.
        from playwright.sync_api import Error

        try:
            self.page.goto(self.base + path)
        except Error as exc:
            if "ERR_ABORTED" not in str(exc) and "interrupted" not in str(exc):
                raise
            self.page.goto(self.base + path)

    def sign_up(self, name: str) -> None:
        self.go("/signup/")
        self.page.fill("#id_username", name)
        self.page.fill("#id_password1", PASSWORD)
        self.page.fill("#id_password2", PASSWORD)
        self.page.click("button[type=submit].primary")
        self.page.wait_for_url(self.base + "/")

    def cell(self, name: str) -> Any:
        return self.page.locator(f'#board-wrap g.cell[data-cell="{name}"]')

    def click_turn(self, *steps: str) -> None:
        """Each step is a cell name, or a button's text ("No move", "Add a leg"…)."""
        for step in steps:
            if re.fullmatch(r"[A-G]\d", step):
                self.cell(step).click()
            else:
                self.page.get_by_role("button", name=step, exact=True).click()

    def send(self, expected: str) -> None:
        assert self.page.input_value("#turn-input") == expected
        self.page.click("#send-turn")
        self.page.wait_for_load_state()
        assert "sent" in self.page.inner_text(".messages")


def test_two_players_sign_up_challenge_play_replay_and_download(live_server, browser) -> None:
    base = live_server.url
    ann, ben = Person(browser, base), Person(browser, base)
    ann.sign_up("ann")
    ben.sign_up("ben")

    ann.go("/lobby/")
    ann.page.fill("#id_opponent", "ben")
    ann.page.select_option("#id_color", "white")
    ann.page.click("#new-challenge ~ form button[type=submit]")
    assert "posted" in ann.page.inner_text(".messages")
    ben.go("/lobby/")
    ben.page.click("article.challenge button:has-text('Accept')")
    ben.page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = ben.page.url.removeprefix(base)
    ann.go(game_url)

    # White: no move, add a pincer on D2 — by keyboard only.
    assert "dashed cell" in ann.page.inner_text("#play-help")
    ann.page.get_by_role("button", name="No move").focus()
    ann.page.keyboard.press("Enter")
    ann.cell("D2").focus()
    ann.page.keyboard.press("Enter")
    ann.page.get_by_role("button", name="Add a pincer").focus()
    ann.page.keyboard.press("Enter")
    ann.send("D2P")

    ben.go(game_url)
    ben.click_turn("No move", "D6", "Add a leg")
    ben.send("D6L")
    ann.go(game_url)
    ann.click_turn("No move", "D2", "Add a leg")
    ann.send("D2L")
    ben.go(game_url)
    # Only legal choices light up: D6 has one leg, so D5 is reachable and D4 is not.
    ben.click_turn("D6")
    assert "mark" in (ben.cell("D5").get_attribute("class") or "")
    assert "mark" not in (ben.cell("D4").get_attribute("class") or "")
    ben.click_turn("D5", "D5", "Add a leg")
    ben.send("D6-D5,D5L")
    ann.go(game_url)
    ann.click_turn("D2", "D3", "D3", "Add a leg")
    ann.send("D2-D3,D3L")
    ben.go(game_url)
    ben.click_turn("No move", "E6")
    ben.send("E6")
    ann.go(game_url)
    ann.click_turn("D3", "D5", "D5", "Add a leg")  # the attack: 1 pincer against none
    ann.send("D3xD5,D5L")
    assert "D5W31,E6B00 b 1-0" in ann.page.input_value("#position-string")

    # Replay: keys and the turn list.
    ben.go(game_url)
    ben.page.keyboard.press("Home")
    ben.page.wait_for_url(re.compile(r"\?ply=0$"))
    ben.page.keyboard.press("ArrowRight")
    ben.page.wait_for_url(re.compile(r"\?ply=1$"))
    assert ben.page.input_value("#position-string") == "D2W01,D6B00 b 0-0"
    ben.page.click(".turns a:has-text('D2-D3,D3L')")
    ben.page.wait_for_url(re.compile(r"\?ply=5$"))
    assert "last" in (ben.cell("D3").get_attribute("class") or "")

    # Language: switch to Russian, remembered for the next visit.
    ben.page.select_option("#language-select", "ru")
    ben.page.click("form.language button")
    ben.page.wait_for_load_state()
    assert ben.page.get_attribute("html", "lang") == "ru"
    assert "Архив" in ben.page.inner_text("header")
    ben.go("/rules/")
    assert "Как играть в Адаптоид" in ben.page.inner_text("main")

    # Resign with confirmation, then download the archive and read it back.
    ben.go(game_url + "resign/")
    ben.page.click("button[name=confirm]")
    ann.go("/archive/?player=ann")
    with ann.page.expect_download() as info:
        ann.page.click("a:has-text('.agn')")
    text = Path(info.value.path()).read_text(encoding="utf-8")
    [record] = list(read_games(text))
    assert not record.errors
    assert record.turns == ["D2P", "D6L", "D2L", "D6-D5,D5L", "D2-D3,D3L", "E6", "D3xD5,D5L"]
    assert record.result == "1-0" and str(record.replay()) == "D5W31,E6B00 b 1-0"

    assert ann.errors == [] and ben.errors == []


def test_pie_opening_by_clicking(live_server, browser) -> None:
    base = live_server.url
    ann, ben = Person(browser, base), Person(browser, base)
    ann.sign_up("pia")
    ben.sign_up("pio")
    ann.go("/lobby/")
    ann.page.fill("#id_opponent", "pio")
    ann.page.select_option("#id_color", "white")
    ann.page.select_option("#id_opening", "pie")
    ann.page.click("#new-challenge ~ form button[type=submit]")
    ben.go("/lobby/")
    ben.page.click("article.challenge button:has-text('Accept')")
    ben.page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = ben.page.url.removeprefix(base)

    ann.go(game_url)  # the challenger places both adaptoids: two clicks
    ann.cell("C3").click()
    ann.cell("E5").click()
    assert ann.page.input_value("#setup-white") == "C3"
    assert ann.page.input_value("#setup-black") == "E5"
    ann.page.click("#setup button[type=submit]")
    ben.go(game_url)
    ben.page.get_by_role("button", name="I play Black").click()
    ben.page.wait_for_load_state()
    assert "White (pia) to move." in ben.page.inner_text("#game-status")
    ann.go(game_url)
    ann.click_turn("No move", "C3", "Add a pincer")
    ann.send("C3P")
    assert ann.page.input_value("#position-string") == "C3W01,E5B00 b 0-0"
    assert ann.errors == [] and ben.errors == []
