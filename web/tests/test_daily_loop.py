"""The player's daily loop, server side (issue #15): the "(N) " title and the header's
counts on every page, the list of games waiting for the player, notifications read
when the game is opened or played, one "your turn" per game, the live status."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from conftest import PASSWORD
from games import services
from games.awaiting import awaiting_count, games_awaiting
from games.models import Game
from notifications.models import Kind, Notification
from notifications.services import recent_for, unread_count

pytestmark = pytest.mark.django_db


def _title(html: str) -> str:
    match = re.search(r"<title>(.*?)</title>", html, re.DOTALL)
    assert match, html[:300]
    return match.group(1).strip()


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _three_waiting_games(alice: Any, bob: Any, carol: Any) -> dict[str, Game]:
    """Alice must act in three games (a turn, a pie placement, a colour choice) and
    not in a fourth (Bob's turn)."""
    turn = services.start_game(white=alice.user, black=bob.user)
    theirs = services.start_game(white=bob.user, black=alice.user)
    place = services.start_game(white=alice.user, black=carol.user, opening=Game.Opening.PIE)
    choose = services.start_game(white=carol.user, black=alice.user, opening=Game.Opening.PIE)
    services.setup_pie(game=choose, player=carol.user, white="C3", black="E5")
    return {"turn": turn, "theirs": theirs, "place": place, "choose": choose}


def test_every_page_title_starts_with_the_number_of_games_waiting(
    alice: Any, bob: Any, make_player: Any
) -> None:
    _three_waiting_games(alice, bob, make_player("carol"))
    assert awaiting_count(alice.user) == 3
    client = _client(alice.user)
    for url in ("/", "/lobby/", "/archive/", "/rules/", "/notifications/", "/settings/"):
        title = _title(client.get(url).content.decode())
        assert title.startswith("(3) "), (url, title)
        assert title.count("Adaptoid") == 1, (url, title)  # the site's name once
    # Bob acts in one game (the one where he is White).
    assert _title(_client(bob.user).get("/").content.decode()).startswith("(1) ")


def test_no_prefix_without_waiting_games_or_for_visitors(alice: Any) -> None:
    assert not _title(_client(alice.user).get("/").content.decode()).startswith("(")
    assert not _title(Client().get("/").content.decode()).startswith("(")


def test_header_links_the_counts(alice: Any, bob: Any) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    services.play_turn(game=game, player=alice.user, text="D2L", ply=1)  # Bob is told
    page = _client(bob.user).get("/lobby/").content.decode()
    assert re.search(r'href="/waiting/"[^>]*>.*?id="awaiting-count">1<', page, re.DOTALL)
    assert re.search(r'href="/notifications/"[^>]*>.*?id="unread-count">1<', page, re.DOTALL)
    assert 'href="/vacation/"' in page


def test_waiting_list_puts_the_nearest_deadline_first(
    alice: Any, bob: Any, make_player: Any
) -> None:
    games = _three_waiting_games(alice, bob, make_player("carol"))
    now = timezone.now()
    Game.objects.filter(pk=games["turn"].pk).update(deadline=now + dt.timedelta(days=2))
    Game.objects.filter(pk=games["place"].pk).update(deadline=now + dt.timedelta(hours=3))
    Game.objects.filter(pk=games["choose"].pk).update(deadline=None)  # clock stopped
    assert [g.pk for g in games_awaiting(alice.user)] == [
        games["place"].pk,
        games["turn"].pk,
        games["choose"].pk,
    ]
    page = _client(alice.user).get("/waiting/").content.decode()
    positions = [page.index(f'href="/games/{games[k].pk}/"') for k in ("place", "turn", "choose")]
    assert positions == sorted(positions)
    assert f'href="/games/{games["theirs"].pk}/"' not in page
    assert "Place the two adaptoids" in page and "Choose your colour" in page


def test_opening_the_game_marks_its_notifications_read(alice: Any, bob: Any) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    other = services.start_game(white=alice.user, black=bob.user)
    assert unread_count(alice.user) == 2  # your turn, twice
    # A stranger or Bob opening Alice's game changes nothing for her.
    _client(bob.user).get(f"/games/{game.pk}/")
    assert unread_count(alice.user) == 2
    _client(alice.user).get(f"/games/{game.pk}/")
    assert Notification.objects.filter(user=alice.user, read__isnull=True).get().game_id == other.pk


def test_playing_a_turn_marks_the_games_notifications_read(alice: Any, bob: Any) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    assert unread_count(alice.user) == 1
    services.play_turn(game=game, player=alice.user, text="D2L", ply=1)  # e.g. through the API
    assert unread_count(alice.user) == 0
    assert unread_count(bob.user) == 1


def test_repeated_your_turn_notices_for_one_game_collapse_into_one(alice: Any, bob: Any) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    for ply in range(2, 14):  # Bob plays by API 6 times, Alice never opens the page...
        player = bob.user if ply % 2 == 0 else alice.user
        position = services.replay(Game.objects.get(pk=game.pk))
        text = min(str(t) for t in position.legal_turns)
        game = services.play_turn(
            game=Game.objects.get(pk=game.pk), player=player, text=text, ply=ply
        )[0]
        if game.status == Game.Status.FINISHED:
            break
    mine = [n for n in recent_for(alice.user) if n.kind == Kind.YOUR_TURN]
    assert len(mine) == 1  # ...and sees one "your turn" for this game, not six
    assert unread_count(alice.user) <= 1


def test_status_answers_the_counts_and_changes_its_version(alice: Any, bob: Any) -> None:
    client = _client(bob.user)
    first = client.get("/status.json").json()
    assert first["awaiting"] == 0 and first["unread"] == 0
    game = services.start_game(white=alice.user, black=bob.user)
    services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    second = client.get("/status.json").json()
    assert second["awaiting"] == 1 and second["unread"] == 1
    assert second["version"] != first["version"]
    assert client.get("/status.json").json() == second  # stable while nothing happens
    home = client.get("/").content.decode()
    assert f'data-version="{second["version"]}"' in home  # the page knows what it shows
    assert Client().get("/status.json").status_code == 302  # to the login page


def test_black_sees_the_board_turned_and_white_does_not(alice: Any, bob: Any) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    black = _client(bob.user).get(f"/games/{game.pk}/").content.decode()
    white = _client(alice.user).get(f"/games/{game.pk}/").content.decode()
    assert 'data-flipped="1"' in black and 'class="turnable" transform="rotate(180' in black
    assert 'data-flipped="0"' in white and 'class="turnable">' in white
    assert 'data-cell="D7"' in black and 'id="flip-board"' in black


def test_preview_answers_the_position_after_a_turn_as_the_engine_plays_it(
    client: Client,
) -> None:
    # White D4 (2 legs, 1 pincer) walks two cells and attacks Black's D6 (no pincer).
    answer = client.get("/board/preview.json", {"position": "D4W21,D6B00 w 0-0", "turn": "d4xd6"})
    data = answer.json()
    assert answer.status_code == 200, data
    assert data["turn"] == "D4xD6" and data["position"] == "D6W21 b 1-0"  # captured
    assert data["scores"] == [1, 0]
    assert "<svg" in data["svg"] and "board preview" in data["svg"]
    bad = client.get("/board/preview.json", {"position": "D2W00,D6B00 w 0-0", "turn": "D6L"})
    assert bad.status_code == 400 and bad.json()["code"] == "illegal_turn"
    assert "D6L" in bad.json()["detail"]
    nonsense = client.get("/board/preview.json", {"position": "x", "turn": "D2L"})
    assert nonsense.status_code == 400 and nonsense.json()["code"] == "invalid_position"


WEB_LOCALE = Path(__file__).resolve().parents[1] / "locale"


@pytest.mark.parametrize("language", ["ru", "eo"])
def test_the_loops_strings_are_translated_and_shown_translated(
    alice: Any, bob: Any, language: str
) -> None:
    from accounts.models import Profile
    from web.tests.test_web_i18n import entries

    found = entries(WEB_LOCALE / language / "LC_MESSAGES" / "django.po")
    assert found and all(all(strs) and not fuzzy for _msgid, strs, fuzzy in found)
    game = services.start_game(white=alice.user, black=bob.user)
    Profile.objects.filter(user=alice.user).update(language=language)
    client = Client()
    client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    english = [msgid for msgid, _strs, _fuzzy in found if "%" not in msgid]
    for url in ("/", "/waiting/", f"/games/{game.pk}/", "/settings/"):
        page = client.get(url).content.decode()
        shown = [text for text in english if f">{text}<" in page or f'"{text}"' in page]
        assert shown == [], (url, shown)
    assert ">Menu<" not in client.get("/").content.decode()


def test_home_lists_my_turns_by_deadline_then_challenges_then_the_opponents_turns(
    alice: Any, bob: Any, make_player: Any
) -> None:
    games = _three_waiting_games(alice, bob, make_player("carol"))
    Game.objects.filter(pk=games["turn"].pk).update(deadline=timezone.now() + dt.timedelta(hours=1))
    challenge = services.create_challenge(creator=bob.user, opponent="alice")
    page = _client(alice.user).get("/").content.decode()
    assert 'id="live-home" data-live data-version="' in page
    mine = page.index(f'href="/games/{games["turn"].pk}/"')
    place = page.index(f'href="/games/{games["place"].pk}/"')
    accept = page.index(f"/challenges/{challenge.pk}/accept/")
    theirs = page.index(f'href="/games/{games["theirs"].pk}/"')
    assert mine < place < accept < theirs
    assert f"/challenges/{challenge.pk}/decline/" in page
    assert "left" in page[mine:accept]  # the deadline, as time left


def test_a_tournament_game_names_its_tournament_and_round(alice: Any, bob: Any) -> None:
    from django.contrib.auth import get_user_model

    from tournaments import services as tournaments
    from tournaments.models import Pairing

    organiser = get_user_model().objects.create_user("org", is_staff=True)
    cup = tournaments.create_tournament(organiser=organiser, name="Spring Cup", format="roundrobin")
    for player in (alice, bob):
        tournaments.join(tournament=cup, user=player.user)
    tournaments.start_tournament(tournament=cup, by=organiser)
    pairing = Pairing.objects.filter(round__tournament=cup, game__isnull=False).first()
    assert pairing is not None
    page = _client(alice.user).get(f"/games/{pairing.game_id}/").content.decode()
    assert f'<a href="/tournaments/{cup.pk}/">Spring Cup</a>' in page
    assert f'href="/tournaments/{cup.pk}/rounds/{pairing.round.number}/">round ' in page
    detail = _client(alice.user).get(f"/tournaments/{cup.pk}/").content.decode()
    mine = detail.index("Your game this round")
    assert mine < detail.index(f'href="/games/{pairing.game_id}/"') < detail.index("Standings")
    detail = _client(alice.user).get(f"/tournaments/{cup.pk}/").content.decode()
    mine = detail.index("Your game this round")
    assert mine < detail.index(f'href="/games/{pairing.game_id}/"') < detail.index("Standings")
    other = services.start_game(white=alice.user, black=bob.user)
    assert "tournament-line" not in _client(alice.user).get(f"/games/{other.pk}/").content.decode()


def test_tie_breaks_are_blank_before_any_game_counts(
    alice: Any, bob: Any, make_player: Any
) -> None:
    from django.contrib.auth import get_user_model

    from tournaments import selectors
    from tournaments import services as tournaments

    organiser = get_user_model().objects.create_user("org", is_staff=True)
    cup = tournaments.create_tournament(organiser=organiser, name="Fresh Cup", format="roundrobin")
    for player in (alice, bob, make_player("carol")):
        tournaments.join(tournament=cup, user=player.user)
    tournaments.start_tournament(tournament=cup, by=organiser)
    cup.refresh_from_db()
    table = selectors.standings(cup)
    assert table.rows and table.tiebreaks
    values = [value for row in table.rows for _name, value in row.tiebreaks]
    assert set(values) == {""}  # a bye of round 1 counts no game
    page = _client(alice.user).get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Fresh Cup" in page


@pytest.mark.parametrize(
    ("language", "words"), [("en", "Page not found"), ("ru", "Страница не найдена")]
)
def test_the_404_page_is_ours_translated_with_the_header(
    alice: Any, language: str, words: str
) -> None:
    from accounts.models import Profile

    Profile.objects.filter(user=alice.user).update(language=language)
    client = Client()
    client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    answer = client.get("/players/nobody/")
    page = answer.content.decode()
    assert answer.status_code == 404 and words in page
    assert 'class="site"' in page and 'id="header-counts"' in page
    assert client.get("/api/v1/games/999999").json()["code"]  # the API still answers JSON


def test_the_500_page_renders_without_a_request() -> None:
    from django.template.loader import render_to_string
    from django.utils import translation

    with translation.override("eo"):
        page = render_to_string("500.html")
    assert "Servila eraro" in page and 'class="site"' in page


def test_the_organiser_adds_a_bot_from_the_tournament_page(alice: Any, make_player: Any) -> None:
    from django.contrib.auth import get_user_model

    from accounts.models import Profile
    from tournaments import services as tournaments
    from tournaments.models import Participant

    organiser = get_user_model().objects.create_user("org", is_staff=True)
    bot = make_player("robo").user
    Profile.objects.filter(user=bot).update(is_bot=True)
    cup = tournaments.create_tournament(organiser=organiser, name="Bot Cup", format="roundrobin")
    cup.allow_bots = True
    cup.save(update_fields=["allow_bots"])
    url = f"/tournaments/{cup.pk}/add-bot/"
    # A player may not; a person is not a bot; the organiser may.
    _client(alice.user).post(url, {"bot": "robo"})
    assert not Participant.objects.filter(tournament=cup).exists()
    organiser_client = _client(organiser)
    page = organiser_client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert 'name="bot"' in page and 'value="robo"' in page
    answer = organiser_client.post(url, {"bot": "alice"}, follow=True)
    assert "There is no bot account of that name." in answer.content.decode()
    answer = organiser_client.post(url, {"bot": "robo"}, follow=True)
    assert "The bot is in." in answer.content.decode()
    assert list(
        Participant.objects.filter(tournament=cup).values_list("user__username", flat=True)
    ) == ["robo"]
    assert 'value="robo"' not in organiser_client.get(f"/tournaments/{cup.pk}/").content.decode()
