"""The player's daily loop in a real browser (issue #15), Chromium driven by Playwright.

Ann plays White on a 1280 px desktop, Ben plays Black on a 390×844 phone.  They play
a whole game by clicking only; the waiting player's page updates by itself (no
reload: a marker set in the page survives).  On the way: the "(N) " title, the board
turned for Black and the flip control, the preview of an assembled turn and its
one-click undo, the Send button on the phone's first screen, and no page wider than
the phone.  Screenshots go to var/screenshots/ (docs/screenshots/ has the chosen ones).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from engine import Position
from games import services
from games.board_svg import turn_cells
from games.models import Game
from games.tests.helpers import pick_turn
from web.tests.test_web_browser import Person

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# A short but whole game: both sides can walk, attack and grow; it ends by captures.
START = "C3W11,E5B11 w 0-0"
TURN = re.compile(r"(?:([A-G]\d)[-x]([A-G]\d))?,?(?:([A-G]\d)([LP]?))?")
LIMB_BUTTON = {"L": "Add a leg", "P": "Add a pincer"}


def shot(person: Person, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    person.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def board_cell(person: Person, name: str) -> Any:
    return person.page.locator(f'#board-wrap svg.board:not(.preview) g.cell[data-cell="{name}"]')


def click_turn(person: Person, text: str) -> None:
    """Assemble `text` by clicking cells (and the limb buttons) only."""
    page = person.page
    if text == "pass":
        page.get_by_role("button", name="Pass", exact=True).click()
        return
    match = TURN.fullmatch(text)
    assert match, text
    source, target, act, limb = match.groups()
    if source:
        board_cell(person, source).click()
        board_cell(person, target).click()
        if act:
            board_cell(person, act).click()
        elif not page.input_value("#turn-input"):
            page.get_by_role("button", name="End the turn without growing").click()
    else:
        board_cell(person, act).click()
        if "from" in (board_cell(person, act).get_attribute("class") or ""):
            board_cell(person, act).click()  # it was selected to walk: no move after all
    if limb and not page.input_value("#turn-input"):
        page.get_by_role("button", name=LIMB_BUTTON[limb], exact=True).click()
    assert page.input_value("#turn-input") == text


def center_y(person: Person, cell: str) -> float:
    box = board_cell(person, cell).bounding_box()
    assert box is not None
    return box["y"] + box["height"] / 2


def wait_my_turn(person: Person) -> None:
    """The page shows the play panel by itself (game.js), without reloading."""
    person.page.wait_for_selector("#turn-input", timeout=20_000)
    assert person.page.evaluate("window.__stayed") == 1, "the page was reloaded"


def mark_page(person: Person) -> None:
    person.page.evaluate("window.__stayed = 1")


def no_horizontal_overflow(person: Person, path: str) -> None:
    person.go(path)
    width = person.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{path} is {width} px wide at 390 px"


def test_a_whole_game_by_clicking_on_desktop_and_phone(live_server, browser) -> None:
    base = live_server.url
    ann, ben = Person(browser, base), Person(browser, base)
    ben.page.set_viewport_size(PHONE)
    ann.page.set_viewport_size(DESKTOP)
    ann.sign_up("ann")
    ben.sign_up("ben")
    users = get_user_model().objects
    game = services.start_game(
        white=users.get(username="ann"), black=users.get(username="ben"), start_position=START
    )
    url = f"/games/{game.pk}/"

    # Ann must act: every page's title counts it, the header links to the list.
    ann.go("/lobby/")
    assert ann.page.title().startswith("(1) ")
    ann.page.click("#awaiting-link")
    ann.page.wait_for_url(base + "/waiting/")
    ann.page.click(f'a[href="{url}"]')
    ben.go(url)
    mark_page(ben)
    assert not ben.page.title().startswith("(")

    # Ben (Black) sees his side at the bottom: D7 below D1.  Flip turns it either way.
    assert center_y(ben, "D7") > center_y(ben, "D1")
    assert center_y(ann, "D7") < center_y(ann, "D1")
    ben.page.click("#flip-board")
    assert center_y(ben, "D7") < center_y(ben, "D1")
    ben.page.click("#flip-board")
    assert center_y(ben, "D7") > center_y(ben, "D1")
    shot(ben, "game-black-phone-waiting")

    # The preview: the assembled turn drawn as the engine plays it; one click undoes.
    rng = random.Random(1)
    first = pick_turn(START, rng)
    click_turn(ann, first)
    preview = ann.page.locator("#board-wrap svg.board.preview")
    preview.wait_for()
    expected = Position.from_string(START)
    expected.push_text(first)
    assert preview.get_attribute("data-position") == str(expected)
    assert not ann.page.locator("#board-wrap svg.board:not(.preview)").is_visible()
    shot(ann, "game-white-desktop-preview")
    preview.click()
    assert ann.page.input_value("#turn-input") == ""
    assert ann.page.locator("#board-wrap svg.board.preview").count() == 0
    assert board_cell(ann, "C3").is_visible()

    players = {"white": ann, "black": ben}
    phone_checked = False
    for _ply in range(60):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        mover, other = (
            players[game.to_move],
            players["black" if game.to_move == "white" else "white"],
        )
        if mover is ben:
            wait_my_turn(ben)
            ben.page.wait_for_function("() => document.title.startsWith('(1) ')", timeout=10_000)
        else:
            mover.page.wait_for_selector("#turn-input", timeout=20_000)
        position = mover.page.get_attribute("#board-wrap svg.board", "data-position")
        assert position == game.position
        text = pick_turn(position, rng)
        click_turn(mover, text)
        if mover is ben and not phone_checked:
            # The phone's first screen holds the board and the Send button.
            ben.page.evaluate("window.scrollTo(0, 0)")
            send = ben.page.locator("#send-turn").bounding_box()
            shot(ben, "game-black-phone-preview")
            assert send is not None and send["y"] + send["height"] <= PHONE["height"], send
            phone_checked = True
        mark_page(other)
        mover.page.click("#send-turn")
        mover.page.wait_for_load_state()
        assert "sent" in mover.page.inner_text(".messages")
        if other is ben:
            mark_page(ben)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, game.position
    # The loser's page shows the end by itself too.
    for person in (ann, ben):
        person.page.wait_for_function(
            "() => document.getElementById('game-live').dataset.status === 'finished'",
            timeout=20_000,
        )
    # The last turn's cells are marked on the board (the winner's turn, seen by the loser).
    for cell in turn_cells(text):
        if board_cell(ben, cell).count():
            assert "last" in (board_cell(ben, cell).get_attribute("class") or ""), cell
    shot(ann, "game-white-desktop-end")
    shot(ben, "game-black-phone-end")
    assert ann.errors == [] and ben.errors == []


def test_game_page_views_for_the_screenshots(live_server, browser) -> None:
    """White's and Black's view of a game in progress, on desktop and phone."""
    base = live_server.url
    ann, ben = Person(browser, base), Person(browser, base)
    ann.sign_up("wanda")
    ben.sign_up("blake")
    users = get_user_model().objects
    game = services.start_game(
        white=users.get(username="wanda"),
        black=users.get(username="blake"),
        start_position="B2W21,C3W12,E5B21,F5B13,D6B00,C1W00 w 0-0",  # limbs of every kind
    )
    rng = random.Random(3)
    for ply in range(1, 5):
        game.refresh_from_db()
        player = game.white if game.to_move == "white" else game.black
        services.play_turn(game=game, player=player, text=pick_turn(game.position, rng), ply=ply)
    for person, side in ((ann, "white"), (ben, "black")):
        for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
            person.page.set_viewport_size(viewport)
            person.go(f"/games/{game.pk}/")
            shot(person, f"game-{side}-{name}")
    # White to move: Ann's page has the play panel; on the phone Send is on screen.
    ann.page.set_viewport_size(PHONE)
    ann.go(f"/games/{game.pk}/")
    send = ann.page.locator("#send-turn").bounding_box()
    assert send is not None and send["y"] + send["height"] <= PHONE["height"]

    # Blake's home page shows a new challenge by itself, with accept and decline.
    ben.go("/")
    mark_page(ben)
    assert ben.page.locator("article.challenge").count() == 0
    services.create_challenge(creator=users.get(username="wanda"), opponent="blake")
    ben.page.wait_for_selector("article.challenge button:has-text('Decline')", timeout=15_000)
    assert ben.page.evaluate("window.__stayed") == 1, "the home page was reloaded"
    ben.page.click("article.challenge button:has-text('Accept')")
    ben.page.wait_for_url(re.compile(r"/games/\d+/$"))
    assert ann.errors == [] and ben.errors == []


def test_no_page_overflows_a_phone(live_server, browser) -> None:
    base = live_server.url
    ann = Person(browser, base)
    ann.page.set_viewport_size(PHONE)
    visitor = Person(browser, base)
    visitor.page.set_viewport_size(PHONE)
    for path in ("/", "/accounts/login/", "/signup/", "/rules/", "/archive/", "/analysis/"):
        no_horizontal_overflow(visitor, path)
    ann.sign_up("phoebe")
    ben = get_user_model().objects.create_user("bert", password="x-long-password-1", is_staff=True)
    game = services.start_game(white=get_user_model().objects.get(username="phoebe"), black=ben)
    services.play_turn(game=game, player=game.white, text="D2L", ply=1)
    from tournaments import services as tournaments

    cup = tournaments.create_tournament(organiser=ben, name="Phone Cup", format="roundrobin")
    pages = [
        "/",
        "/lobby/",
        "/waiting/",
        "/notifications/",
        "/vacation/",
        "/settings/",
        "/archive/",
        "/analysis/",
        "/rules/",
        "/bots/",
        "/leaderboard/",
        "/tournaments/",
        f"/tournaments/{cup.pk}/",
        f"/tournaments/{cup.pk}/crosstable/",
        "/players/phoebe/",
        f"/games/{game.pk}/",
        f"/games/{game.pk}/?ply=0",
        "/import/",
    ]
    for path in pages:
        no_horizontal_overflow(ann, path)
    # The header is one line on the phone; the menu opens with its button.
    ann.go("/")
    header = ann.page.locator("header.site").bounding_box()
    assert header is not None and header["height"] < 60, header
    assert not ann.page.locator("#site-menu a[href='/lobby/']").is_visible()
    shot(ann, "home-phone")
    ann.page.click("#menu-toggle")
    assert ann.page.locator("#site-menu a[href='/lobby/']").is_visible()
    shot(ann, "home-phone-menu")
    assert ann.errors == [] and visitor.errors == []


def _axe_source() -> str:
    """axe-core from the npm registry: AXE_CORE, or `npm install axe-core` under var/node/."""
    import os

    path = Path(
        os.environ.get(
            "AXE_CORE",
            Path(__file__).resolve().parents[2] / "var/node/node_modules/axe-core/axe.min.js",
        )
    )
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing: npm install --prefix var/node axe-core")
        pytest.skip(f"{path} is missing (npm install --prefix var/node axe-core)")
    return path.read_text(encoding="utf-8")


def test_pages_pass_axe_core_without_serious_violations(live_server, browser) -> None:
    source = _axe_source()
    base = live_server.url
    # axe is injected by the test, not by the site: the page's CSP is bypassed for it only.
    context = browser.new_context(bypass_csp=True, viewport=PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(base + "/signup/")
    page.fill("#id_username", "axel")
    page.fill("#id_password1", "a-long-browser-password-7")
    page.fill("#id_password2", "a-long-browser-password-7")
    page.click("button[type=submit].primary")
    page.wait_for_url(base + "/")
    users = get_user_model().objects
    other = users.create_user("alma", password="x-long-password-1")
    game = services.start_game(white=users.get(username="axel"), black=other)
    report: dict[str, list[str]] = {}
    for path in (
        "/",
        "/waiting/",
        "/lobby/",
        f"/games/{game.pk}/",
        "/notifications/",
        "/vacation/",
        "/settings/",
        "/analysis/",
        "/archive/",
        "/tournaments/",
        "/rules/",
    ):
        page.goto(base + path)
        page.evaluate(source)
        found = page.evaluate(
            """async () => {
                const result = await axe.run(document, {resultTypes: ["violations"]});
                return result.violations
                  .filter(v => v.impact === "serious" || v.impact === "critical")
                  .map(v => v.id + ": " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", "));
            }"""
        )
        if found:
            report[path] = found
    context.close()
    assert report == {}
