"""Web pages for bots: list and challenge, bot match form and page."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Profile
from bots import services as bots
from bots.models import BotMatch, BotMatchGame
from games import services
from games.models import Challenge

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def web(alice: Any) -> Client:
    client = Client()
    client.force_login(alice.user)
    return client


@pytest.fixture
def two_bots() -> list[Any]:
    first = bots.ensure_builtin_bots()[0]
    second = User.objects.create_user("random-bot-2")
    Profile.objects.filter(user=second).update(is_bot=True, bot_engine="random", bot_level=1)
    return [first, second]


def test_bots_page_lists_the_bots_with_a_challenge_form(web: Client, two_bots: Any) -> None:
    page = web.get("/bots/")
    assert page.status_code == 200
    assert b"random-bot" in page.content and b"/bots/random-bot/challenge/" in page.content
    anonymous = Client().get("/bots/")
    assert anonymous.status_code == 200 and b"/bots/random-bot/challenge/" not in anonymous.content


def test_challenging_a_bot_from_the_site_waits_for_its_acceptance(
    web: Client, alice: Any, two_bots: Any
) -> None:
    answer = web.post("/bots/random-bot/challenge/", {"color": "black", "rated": "on"})
    challenge = Challenge.objects.get()
    assert challenge.opponent == two_bots[0] and challenge.color == "black" and challenge.rated
    assert answer.status_code == 302 and answer.url == f"/bots/challenges/{challenge.pk}/"
    waiting = web.get(answer.url)
    assert waiting.status_code == 200 and b"/api/v1/challenges/" in waiting.content
    # Once the bot's task accepted it (here: in-process), the page leads to the game.
    game = bots.accept_bot_challenge(challenge_id=challenge.pk)
    assert web.get(answer.url).url == f"/games/{game.pk}/"


def test_challenging_somebody_who_is_no_bot_from_the_bot_page_is_refused(
    web: Client, bob: Any
) -> None:
    answer = web.post("/bots/bob/challenge/", {"color": "white"}, follow=True)
    assert answer.status_code == 200 and not Challenge.objects.exists()


def test_bot_match_form_starts_a_match_and_shows_its_page(
    web: Client, two_bots: Any, settings: Any
) -> None:
    settings.BOT_MATCH_PARALLEL_GAMES = 2
    form = web.get("/bot-matches/new/")
    assert form.status_code == 200 and b'name="seconds_per_turn"' in form.content
    answer = web.post(
        "/bot-matches/new/",
        {"white": "random-bot", "black": "random-bot-2", "games": 20, "seconds_per_turn": 0.1},
    )
    match = BotMatch.objects.get()
    assert answer.status_code == 302 and answer.url == f"/bot-matches/{match.pk}/"
    page = web.get(answer.url)
    assert page.status_code == 200
    assert (
        b"<progress" in page.content and f"/api/v1/bot-matches/{match.pk}".encode() in page.content
    )
    assert page.content.count(b'<tr><td><a href="/games/') == 2  # the games started so far


def test_bot_match_form_shows_errors_instead_of_failing(web: Client, two_bots: Any) -> None:
    same = web.post(
        "/bot-matches/new/",
        {"white": "random-bot", "black": "random-bot", "games": 2, "seconds_per_turn": 0.1},
    )
    assert same.status_code == 200 and b"two different bots" in same.content
    too_many = web.post(
        "/bot-matches/new/",
        {"white": "random-bot", "black": "random-bot-2", "games": 500, "seconds_per_turn": 0.1},
    )
    assert too_many.status_code == 200 and not BotMatch.objects.exists()
    assert Client().get("/bot-matches/new/").status_code == 302  # log in first
    assert Client().get("/bot-matches/999/").status_code == 404


def test_game_page_follows_the_game_while_the_bot_is_to_move(
    web: Client, alice: Any, two_bots: Any
) -> None:
    game = services.start_game(white=alice.user, black=two_bots[0])
    services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    waiting = web.get(f"/games/{game.pk}/").content
    # games/game.js follows the game through the API and redraws it (players and onlookers).
    assert b"games/game.js" in waiting and f'data-api="/api/v1/games/{game.pk}"'.encode() in waiting
    assert b"games/game.js" in Client().get(f"/games/{game.pk}/").content


def test_the_creator_stops_a_match_from_its_page(web: Client, alice: Any, two_bots: Any) -> None:
    match = bots.create_bot_match(
        creator=alice.user, white="random-bot", black="random-bot-2", games=10, seconds_per_turn=0.1
    )
    page = web.get(f"/bot-matches/{match.pk}/")
    assert f"/bot-matches/{match.pk}/stop/".encode() in page.content
    assert b"/stop/" not in Client().get(f"/bot-matches/{match.pk}/").content
    answer = web.post(f"/bot-matches/{match.pk}/stop/")
    assert answer.status_code == 302
    match.refresh_from_db()
    assert match.games == BotMatchGame.objects.filter(match=match).count()
