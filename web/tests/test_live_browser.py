"""Live updates in a real browser (issue #15): the pages follow the stream service's
Server-Sent Events (GET /api/v1/stream/page-events, web/static/web/live.js) instead of
polling, and poll again when the stream is refused.

Ben's game page and home page are open in two tabs; Ann plays, challenges him and
offers a draw from the server side (the services the forms call).  What the browser
asks for is recorded: while the stream is open and nothing happens, no page asks
/status.json or the game API at all (the polling timers are off, although the stream
ends and reconnects meanwhile); each change arrives as an event, after which the page
fetches the changed part.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.signals import request_started

from games import agreements, services
from stream.slots import held_slots
from web.tests.test_web_browser import Person

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLLED = ("/status.json", "/api/v1/games/", "/messages")
STREAM = "/api/v1/stream/page-events"


def _user(name: str) -> Any:
    return get_user_model().objects.get(username=name)


def _record(person: Person) -> list[str]:
    """The paths every page of `person`'s browser asks for, from now on."""
    paths: list[str] = []
    person.context.on("request", lambda request: paths.append(urlsplit(request.url).path))
    return paths


def _polls(paths: list[str]) -> list[str]:
    return [path for path in paths if any(part in path for part in POLLED)]


def _new_tab(person: Person) -> Any:
    """Another tab in `person`'s browser, its console errors added to theirs."""
    tab = person.context.new_page()
    tab.on("console", lambda m: m.type == "error" and person.errors.append(m.text))
    tab.on("pageerror", lambda e: person.errors.append(str(e)))
    return tab


def _close_all(people: dict[str, Person]) -> None:
    """Close the browsers: the server notices at each stream's next keep-alive and gives
    the slots back (they would count against the next test's players otherwise)."""
    users = [_user(name) for name in people]
    for person in people.values():
        person.context.close()
    deadline = time.monotonic() + 10
    while any(held_slots(user_id=user.pk, page=True) for user in users):
        assert time.monotonic() < deadline, "a closed tab kept its stream slot"
        time.sleep(0.2)


def _live_mode(page: Any, mode: str) -> None:
    page.wait_for_function(
        f"() => document.documentElement.dataset.liveMode === {mode!r}", timeout=10_000
    )


def test_game_and_home_pages_update_from_the_stream_without_polling(
    live_server: Any, browser: Any, settings: Any
) -> None:
    # Short streams: the pages must reconnect (and resume) during the test.
    settings.STREAM_MAX_SECONDS = 3
    base = live_server.url
    ann, ben = Person(browser, base), Person(browser, base)
    ann.sign_up("ann")
    ben.sign_up("ben")
    game = services.start_game(white=_user("ann"), black=_user("ben"))
    ben.go(f"/games/{game.pk}/")
    home = _new_tab(ben)
    home.goto(base + "/")
    for page in (ben.page, home):
        _live_mode(page, "stream")
    assert home.locator("#awaiting-link").is_hidden()  # nothing waits: no "Your turn 0"
    time.sleep(1)  # the catch-up fetch of each page, once the stream is open

    paths = _record(ben)
    streams_opened: list[str] = []  # the live server's side: EventSource's reconnections

    def opened(sender: Any, environ: dict[str, Any], **kwargs: Any) -> None:
        if environ.get("PATH_INFO") == STREAM:
            streams_opened.append(environ.get("HTTP_LAST_EVENT_ID", ""))

    request_started.connect(opened)
    try:
        time.sleep(4.5)  # longer than the polling timers (2 and 3 s) and than a stream
    finally:
        request_started.disconnect(opened)
    assert _polls(paths) == [], paths
    # The streams ended and reconnected meanwhile, resuming after their last event.
    assert len(streams_opened) >= 2 and all(streams_opened), streams_opened

    # Ann's turn: Ben's game page swaps in the new position, both tabs count it.
    services.play_turn(game=game, player=_user("ann"), text="D2L", ply=1)
    ben.page.wait_for_function(
        "() => document.getElementById('game-live').dataset.ply === '1'", timeout=5_000
    )
    for page in (ben.page, home):
        page.wait_for_function("() => document.title.startsWith('(1) ')", timeout=5_000)
        assert page.inner_text("#awaiting-count") == "1"
    home.wait_for_function(
        "() => document.getElementById('live-home').textContent.includes('ann')", timeout=5_000
    )

    # Ann challenges Ben: his home page lists it.
    services.create_challenge(creator=_user("ann"), opponent="ben")
    home.wait_for_function(
        "() => document.querySelector('#live-home article.challenge') !== null", timeout=5_000
    )
    assert "ann" in home.inner_text("#live-home article.challenge")

    # Ben is assembling his turn when Ann offers a draw: his page offers the update
    # instead of throwing the turn away.
    ben.click_turn("No move", "D6", "Add a leg")
    assert ben.page.input_value("#turn-input") == "D6L"
    agreements.offer_draw(game=game, player=_user("ann"))
    ben.page.locator("#live-note").wait_for(state="visible", timeout=5_000)
    assert ben.page.input_value("#turn-input") == "D6L"

    # Every change came as an event; the fetches that followed were the pages' answers.
    assert ben.page.evaluate("window.adaptoidLive.events") >= 3
    assert home.evaluate("window.adaptoidLive.events") >= 3
    for page in (ben.page, home):
        assert page.evaluate("document.documentElement.dataset.liveMode") == "stream"
    assert ann.errors == [] and ben.errors == []
    _close_all({"ann": ann, "ben": ben})


@pytest.mark.parametrize(
    ("limits", "status"),
    [
        # Ben's own tabs: one page stream per account.
        ({"STREAM_PAGE_MAX_PER_USER": 1}, "429"),
        # The stream service's share for pages (issue #28.3): 3 streams less 1 kept for
        # bots, taken by Ann's tab and Ben's first.
        ({"STREAM_MAX_TOTAL": 3, "STREAM_RESERVED_FOR_BOTS": 1}, "503"),
    ],
)
def test_a_refused_stream_leaves_the_page_polling(
    live_server: Any, browser: Any, settings: Any, limits: dict[str, int], status: str
) -> None:
    for name, value in limits.items():
        setattr(settings, name, value)
    settings.STREAM_MAX_SECONDS = 60  # the first tabs' streams hold their slots throughout
    base = live_server.url
    ann, ben = Person(browser, base), Person(browser, base)
    ann.sign_up("ann")
    ben.sign_up("ben")
    game = services.start_game(white=_user("ann"), black=_user("ben"))
    # Ann's tab and Ben's first (the home pages they signed up on) hold their streams...
    _live_mode(ann.page, "stream")
    _live_mode(ben.page, "stream")
    # ...so Ben's second tab, the game's page, is refused (429 or 503) and polls.
    tab = _new_tab(ben)
    paths = _record(ben)
    tab.goto(f"{base}/games/{game.pk}/")
    _live_mode(tab, "poll")
    # A poll of the game answered before the turn: the turn then needs another one.
    with tab.expect_response(lambda response: "/api/v1/games/" in response.url, timeout=8_000):
        pass
    services.play_turn(game=game, player=_user("ann"), text="D2L", ply=1)
    tab.wait_for_function(
        "() => document.getElementById('game-live').dataset.ply === '1'", timeout=8_000
    )
    tab.wait_for_function("() => document.title.startsWith('(1) ')", timeout=8_000)
    assert tab.evaluate("window.adaptoidLive.events") == 0
    assert len([path for path in _polls(paths) if path.startswith("/api/v1/games/")]) >= 2
    # The first tab got the same turn from its stream.
    ben.page.wait_for_function("() => document.title.startsWith('(1) ')", timeout=5_000)
    assert ben.page.evaluate("window.adaptoidLive.events") >= 1
    # Chromium reports the refused stream on the console; nothing else went wrong.
    assert ben.errors and all(status in error for error in ben.errors), ben.errors
    assert ann.errors == []
    _close_all({"ann": ann, "ben": ben})
