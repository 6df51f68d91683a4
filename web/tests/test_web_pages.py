"""The pages, through Django's test client: each calls the same services as the API."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from accounts import services as account_services
from accounts.models import ApiToken, Profile
from engine import Position
from games import services
from games.models import Challenge, Game

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery-staple"


@pytest.fixture
def web_alice(client, alice):
    client.force_login(alice.user)
    return client


def test_signup_logs_the_new_player_in_and_remembers_the_browser_language(client) -> None:
    answer = client.post(
        "/signup/",
        {
            "username": "zoe",
            "email": "zoe@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        HTTP_ACCEPT_LANGUAGE="eo",
    )
    assert answer.status_code == 302
    page = client.get("/")
    assert "zoe" in page.content.decode()
    assert Profile.objects.get(user__username="zoe").language == "eo"


def test_signup_shows_weak_password_and_taken_name_in_words(client, alice) -> None:
    page = client.post("/signup/", {"username": "zoe", "password1": "123", "password2": "123"})
    assert page.status_code == 200
    assert "too short" in page.content.decode() or "too common" in page.content.decode()
    page = client.post(
        "/signup/", {"username": "alice", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert "taken" in page.content.decode()


def test_login_restores_the_profiles_language(client, alice) -> None:
    Profile.objects.filter(user=alice.user).update(language="ru")
    answer = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert answer.status_code == 302
    page = client.get("/lobby/")
    assert page.status_code == 200
    assert '<html lang="ru">' in page.content.decode()


def test_language_switch_is_saved_in_the_profile(web_alice, alice) -> None:
    answer = web_alice.post("/language/", {"language": "eo", "next": "/rules/"})
    assert answer.status_code == 302
    assert Profile.objects.get(user=alice.user).language == "eo"
    page = web_alice.get("/rules/")
    assert '<html lang="eo">' in page.content.decode()
    assert "Kiel ludi Adaptoidon" in page.content.decode()


@pytest.mark.parametrize(
    ("language", "title"),
    [
        ("en", "How to play Adaptoid"),
        ("ru", "Как играть в Адаптоид"),
        ("eo", "Kiel ludi Adaptoidon"),
    ],
)
def test_rules_page_in_each_language(client, language, title) -> None:
    page = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language)
    assert title in page.content.decode()


def test_password_reset_sends_an_email_with_a_working_link(client, alice, settings) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    alice.user.email = "alice@example.org"
    alice.user.save()
    answer = client.post("/accounts/reset/", {"email": "alice@example.org"})
    assert answer.status_code == 302 and len(mail.outbox) == 1
    # The link starts with the site's public address (SITE_URL), not the request's Host.
    site = re.escape(settings.SITE_URL)
    link = re.search(site + r"(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200
    new = "another-long-password-42"
    done = client.post(form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    assert done.status_code == 302
    alice.user.refresh_from_db()
    assert alice.user.check_password(new)


def test_settings_save_profile_and_token_is_shown_once_then_revoked(web_alice, alice) -> None:
    answer = web_alice.post(
        "/settings/",
        {
            "display_name": "Alice A.",
            "email": "a@example.org",
            "language": "ru",
            "email_notifications": "",
        },
    )
    assert answer.status_code == 302
    profile = Profile.objects.get(user=alice.user)
    assert (profile.display_name, profile.language, profile.email_notifications) == (
        "Alice A.",
        "ru",
        False,
    )
    before = ApiToken.objects.filter(user=alice.user).count()
    page = web_alice.post("/settings/token/", {"password": PASSWORD})
    token = re.search(r'id="new-token">([^<]+)<', page.content.decode()).group(1)
    assert account_services.user_for_token(token) == alice.user
    assert ApiToken.objects.filter(user=alice.user).count() == before + 1
    assert token not in web_alice.get("/settings/").content.decode()
    row = ApiToken.objects.filter(user=alice.user).latest("created")
    web_alice.post(f"/settings/token/{row.pk}/revoke/")
    assert account_services.user_for_token(token) is None


def test_wrong_password_creates_no_token(web_alice, alice) -> None:
    before = ApiToken.objects.count()
    page = web_alice.post("/settings/token/", {"password": "wrong"})
    assert "Wrong username or password" in page.content.decode()
    assert ApiToken.objects.count() == before


def test_lobby_challenge_accept_decline_cancel(client, alice, bob) -> None:
    client.force_login(alice.user)
    client.post(
        "/lobby/",
        {
            "opponent": "bob",
            "color": "white",
            "opening": "standard",
            "days_per_turn": 3,
            "rated": "on",
        },
    )
    client.post(
        "/lobby/", {"opponent": "bob", "color": "black", "opening": "standard", "days_per_turn": 2}
    )
    client.post(
        "/lobby/", {"opponent": "", "color": "random", "opening": "pie", "days_per_turn": 5}
    )
    first, second = Challenge.objects.filter(opponent=bob.user).order_by("id")
    page = client.get("/lobby/")
    assert page.content.decode().count("data-challenge=") == 3
    client.post(f"/challenges/{Challenge.objects.get(opponent__isnull=True).pk}/cancel/")
    client.force_login(bob.user)
    assert "Accept" in client.get("/lobby/").content.decode()
    answer = client.post(f"/challenges/{first.pk}/accept/")
    game = Game.objects.get()
    assert answer["Location"] == f"/games/{game.pk}/" and game.white == alice.user
    client.post(f"/challenges/{second.pk}/decline/")
    assert Challenge.objects.get(pk=second.pk).status == "declined"


def test_challenging_an_unknown_player_says_so(web_alice) -> None:
    page = web_alice.post(
        "/lobby/",
        {"opponent": "nobody", "color": "white", "opening": "standard", "days_per_turn": 3},
        follow=True,
    )
    assert "There is no player called nobody." in page.content.decode()


def test_game_page_draws_the_board_and_offers_legal_turns_to_the_mover(client, alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    page = client.get(f"/games/{game.pk}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert html.count('class="cell') == 37 and 'data-cell="D2"' in html
    assert "D2: white adaptoid, 0 legs, 0 pincers" in html
    assert "legal-turns" not in html  # a visitor cannot play
    client.force_login(alice.user)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert '"D2L"' in html and 'tabindex="0"' in html


def test_playing_through_the_page_stores_the_turn_and_errors_come_in_words(
    client, alice, bob
) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    client.force_login(alice.user)
    client.post(f"/games/{game.pk}/play/", {"turn": "d2l", "ply": 1})
    game.refresh_from_db()
    assert game.ply == 1 and game.turns.get().text == "D2L"
    page = client.post(f"/games/{game.pk}/play/", {"turn": "C6", "ply": 2}, follow=True)
    assert "It is not your turn." in page.content.decode()
    client.force_login(bob.user)
    page = client.post(f"/games/{game.pk}/play/", {"turn": "D6-D4", "ply": 2}, follow=True)
    assert "is not allowed here" in page.content.decode()
    page = client.post(f"/games/{game.pk}/play/", {"turn": "Z9?", "ply": 2}, follow=True)
    assert "not a turn in Adaptoid notation" in page.content.decode()


def test_replay_shows_each_position_and_highlights_the_last_turn(client, alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    for ply, (player, text) in enumerate([(alice, "D2L"), (bob, "D6L"), (alice, "D2-D3,D3P")], 1):
        services.play_turn(game=game, player=player.user, text=text, ply=ply)
    html = client.get(f"/games/{game.pk}/?ply=1").content.decode()
    assert "D2W10,D6B00 b 0-0" in html
    assert 'class="cell last" data-cell="D2"' in html
    assert 'rel="next" href="?ply=2"' in html and 'rel="prev" href="?ply=0"' in html
    last = client.get(f"/games/{game.pk}/").content.decode()
    assert 'aria-current="step"' in last and "D3P" in last


def test_resign_needs_confirmation(client, alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    client.force_login(bob.user)
    assert "Yes, I resign" in client.get(f"/games/{game.pk}/resign/").content.decode()
    client.post(f"/games/{game.pk}/resign/", {})
    assert Game.objects.get(pk=game.pk).status == "active"
    client.post(f"/games/{game.pk}/resign/", {"confirm": "yes"})
    game.refresh_from_db()
    assert (game.result, game.termination) == ("1-0", "resignation")


def test_pie_opening_setup_and_choice_through_the_page(client, alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user, opening="pie")
    client.force_login(alice.user)
    assert 'id="setup-white"' in client.get(f"/games/{game.pk}/").content.decode()
    page = client.post(f"/games/{game.pk}/setup/", {"white": "C3", "black": "C3"}, follow=True)
    assert "message error" in page.content.decode()
    client.post(f"/games/{game.pk}/setup/", {"white": "C3", "black": "E5"})
    client.force_login(bob.user)
    assert "I play White" in client.get(f"/games/{game.pk}/").content.decode()
    client.post(f"/games/{game.pk}/choose/", {"color": "white"})
    game.refresh_from_db()
    assert game.status == "active" and game.white == bob.user


def test_analysis_plays_a_line_without_touching_any_game(client, alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    answer = client.get(f"/analysis/?game={game.pk}")
    assert answer.status_code == 302
    answer = client.get(
        "/analysis/", {"position": "D2W00,D6B00 w 0-0", "line": "D2L", "turn": "D6P"}
    )
    assert answer.status_code == 302
    html = client.get(answer["Location"]).content.decode()
    assert "D2W10,D6B01 w 0-0" in html and 'value="D2L D6P"' in html
    html = client.get(
        "/analysis/", {"position": "D2W00,D6B00 w 0-0", "line": "D2L D6-D4"}
    ).content.decode()
    assert "is not allowed here" in html and 'value="D2L"' in html
    assert Game.objects.get(pk=game.pk).ply == 0
    assert (
        "not a position string"
        in client.get("/analysis/", {"position": "xx"}).content.decode().lower()
    )


def test_position_svg_download(client) -> None:
    answer = client.get(
        "/board.svg", {"position": "B4W21,C1W00,D4B22,E3W31,E5B00,F7B03 w 0-0", "download": "1"}
    )
    assert answer["Content-Type"].startswith("image/svg+xml")
    assert "attachment" in answer["Content-Disposition"]
    svg = answer.content.decode()
    assert (
        svg.count('class="limb leg"') == 2 + 2 + 3
        and svg.count('class="limb pincer"') == 1 + 2 + 1 + 3
    )
    assert client.get("/board.svg", {"position": "nonsense"}).status_code == 400


def test_game_record_download_reads_back(client, alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    answer = client.get(f"/games/{game.pk}/record.agn")
    from engine import read_games

    [record] = list(read_games(answer.content.decode()))
    assert record.turns == ["D2L"] and not record.errors
    assert str(record.replay()) == str(Position.from_string(Game.objects.get(pk=game.pk).position))


def test_player_page_counts_results(client, alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    services.resign(game=game, player=bob.user)
    html = client.get("/players/alice/").content.decode()
    assert "1 won, 0 lost, 0 drawn" in html
    assert client.get("/players/nobody/").status_code == 404


def test_home_lists_your_turn_games_first(client, alice, bob) -> None:
    mine = services.start_game(white=alice.user, black=bob.user)
    theirs = services.start_game(white=bob.user, black=alice.user)
    client.force_login(alice.user)
    html = client.get("/").content.decode()
    your_turn = html.split('id="your-turn"')[1].split('id="waiting"')[0]
    assert f"/games/{mine.pk}/" in your_turn and f"/games/{theirs.pk}/" not in your_turn


def test_home_lists_the_tournaments_not_over(client, alice) -> None:
    from tournaments import services as tournaments
    from tournaments.models import Tournament

    def cup(name: str, status: str) -> None:
        made = tournaments.create_tournament(organiser=organiser, name=name, format="roundrobin")
        Tournament.objects.filter(pk=made.pk).update(status=status)

    organiser = alice.user
    organiser.is_staff = True
    organiser.save()
    cup("Open Cup", "registration")
    cup("Busy Cup", "running")
    cup("Old Cup", "finished")
    cup("Called-off Cup", "cancelled")
    html = client.get("/").content.decode()
    section = html.split('id="tournaments"')[1].split("</section>")[0]
    assert re.findall(r'href="/tournaments/\d+/">([^<]+)<', section) == ["Busy Cup", "Open Cup"]


def test_pages_need_login_where_they_change_things(client) -> None:
    for url in ("/lobby/", "/settings/", "/import/"):
        answer = client.get(url)
        assert answer.status_code == 302 and "/accounts/login/" in answer["Location"], url


def test_profile_language_wins_over_an_older_cookie_after_login(client, alice) -> None:
    Profile.objects.filter(user=alice.user).update(language="eo")
    client.cookies["django_language"] = "ru"
    client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert '<html lang="eo">' in client.get("/").content.decode()


def test_odd_query_numbers_are_no_server_error(client, alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    for url in (
        f"/games/{game.pk}/?ply=²", f"/games/{game.pk}/?ply=99999999999999999999",
        "/board.svg?game=99999999999999999999", "/board.svg?game=²",
        "/analysis/?game=99999999999999999999&ply=3", f"/analysis/?game={game.pk}&ply=²",
    ):  # fmt: skip
        assert client.get(url).status_code in (200, 302, 400, 404), url


def test_password_change(web_alice, alice) -> None:
    assert "Change my password" in web_alice.get("/accounts/password/").content.decode()
    new = "yet-another-long-password-9"
    answer = web_alice.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )
    assert answer.status_code == 302
    alice.user.refresh_from_db()
    assert alice.user.check_password(new)


def test_lobby_offers_the_time_controls(web_alice, bob) -> None:
    page = web_alice.get("/lobby/").content.decode()
    assert 'name="clock_kind"' in page and 'name="weekend_pause"' in page
    web_alice.post(
        "/lobby/",
        {
            "opponent": "bob", "color": "white", "opening": "standard", "clock_kind": "bank",
            "days_per_turn": 10, "increment_hours": 12, "weekend_pause": "on",
        },
    )  # fmt: skip
    challenge = Challenge.objects.get()
    assert (challenge.clock_kind, challenge.days_per_turn) == ("bank", 10)
    assert challenge.time_control.increment_hours == 12 and challenge.weekend_pause
