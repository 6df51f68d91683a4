"""Draw offers, aborts, rematches and private notes through the API (games.agreements).

The races at the end run real concurrent HTTP requests against a live server on
PostgreSQL, where the game row lock is what serialises them.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.db import connection

from archive import imports as archive_imports
from archive import services as archive_services
from archive.verification import check_game
from clocks.timecontrol import TimeControl
from engine import read_games
from games import services, signals
from games.models import Challenge, Game, GameNote
from games.tests.helpers import start_standard_game, submit

pytestmark = pytest.mark.django_db


def _draw(player: Any, game_id: int) -> Any:
    return player.client.post(f"/api/v1/games/{game_id}/draw")


def _no_draw(player: Any, game_id: int) -> Any:
    return player.client.delete(f"/api/v1/games/{game_id}/draw")


# --- Draw offers ---------------------------------------------------------------------------


def test_a_draw_offered_by_the_player_not_to_move_and_accepted_is_recorded(alice, bob) -> None:
    game = start_standard_game(alice, bob)  # alice is White, to move
    offered = _draw(bob, game["id"])
    assert offered.status_code == 201
    assert offered.json()["draw_offer"] == "black"
    again = _draw(bob, game["id"])
    assert (again.status_code, again.json()["draw_offer"]) == (200, "black")

    agreed = _draw(alice, game["id"])
    assert agreed.status_code == 200
    body = agreed.json()
    assert (body["status"], body["result"], body["termination"], body["draw_offer"]) == (
        "finished",
        "1/2-1/2",
        "agreement",
        None,
    )
    # The record says so, and the record reader (and the archive's import) takes it.
    record = alice.client.get(f"/api/v1/games/{game['id']}/record").content.decode()
    assert '[Termination "agreement"]' in record and '[Result "1/2-1/2"]' in record
    (read,) = read_games(record)
    assert read.errors == [] and read.headers["Termination"] == "agreement"
    report = archive_imports.import_games(user=alice.user, text=record)
    assert report.rejected == []
    (imported,) = report.stored
    assert (imported.result, imported.termination) == ("1/2-1/2", "agreement")


def test_the_offer_lapses_when_its_author_plays_on_not_when_the_opponent_does(alice, bob) -> None:
    game = start_standard_game(alice, bob)
    assert _draw(alice, game["id"]).json()["draw_offer"] == "white"
    played = submit(alice, game["id"], 1, "D2L")
    assert (played.status_code, played.json()["draw_offer"]) == (201, None)

    assert _draw(alice, game["id"]).status_code == 201  # offered on the opponent's turn
    assert submit(bob, game["id"], 2, "D6L").json()["draw_offer"] == "white"  # still stands
    assert submit(alice, game["id"], 3, "D2P").json()["draw_offer"] is None
    # Lapsed: Black's call is a new offer of their own, not an acceptance.
    assert _draw(bob, game["id"]).status_code == 201
    assert Game.objects.get(pk=game["id"]).status == Game.Status.ACTIVE


def test_delete_withdraws_or_declines_and_says_when_there_is_nothing_to_cancel(
    alice, bob, stranger
) -> None:
    game = start_standard_game(alice, bob)
    missing = _no_draw(alice, game["id"])
    assert (missing.status_code, missing.json()["code"]) == (409, "no_draw_offer")
    _draw(alice, game["id"])
    assert _no_draw(stranger, game["id"]).json()["code"] == "not_a_player"
    withdrawn = _no_draw(alice, game["id"])  # the author
    assert (withdrawn.status_code, withdrawn.json()["draw_offer"]) == (200, None)
    _draw(alice, game["id"])
    declined = _no_draw(bob, game["id"])  # the opponent
    assert (declined.status_code, declined.json()["draw_offer"]) == (200, None)
    # Declined: Black's offer is a new one, it does not end the game.
    assert _draw(bob, game["id"]).status_code == 201


def test_draw_refusals_are_clear_errors(alice, bob, stranger) -> None:
    game = start_standard_game(alice, bob)
    assert _draw(stranger, game["id"]).json()["code"] == "not_a_player"
    assert alice.client.post("/api/v1/games/999999/draw").status_code == 404
    services.resign(game=Game.objects.get(pk=game["id"]), player=bob.user)
    over = _draw(alice, game["id"])
    assert (over.status_code, over.json()["code"]) == (409, "game_over")
    assert _no_draw(alice, game["id"]).json()["code"] == "game_over"
    pie = services.start_game(white=alice.user, black=bob.user, opening=Game.Opening.PIE)
    setup = _draw(alice, pie.pk)
    assert (setup.status_code, setup.json()["code"]) == (409, "wrong_phase")


def test_no_agreement_once_the_clock_of_the_player_to_move_has_run_out(alice, bob) -> None:
    import datetime

    from django.utils import timezone

    game = start_standard_game(alice, bob)
    _draw(bob, game["id"])
    past = timezone.now() - datetime.timedelta(minutes=1)
    Game.objects.filter(pk=game["id"]).update(deadline=past)  # White's time is up
    late = _draw(alice, game["id"])
    assert (late.status_code, late.json()["code"]) == (409, "time_expired")
    aborted = bob.client.post(f"/api/v1/games/{game['id']}/abort")
    assert (aborted.status_code, aborted.json()["code"]) == (409, "time_expired")
    assert Game.objects.get(pk=game["id"]).status == Game.Status.ACTIVE


# --- Abort ---------------------------------------------------------------------------------


def test_either_player_aborts_before_both_have_moved_unrated_and_recorded(alice, bob) -> None:
    from ratings.services import rate_finished_game

    game = start_standard_game(alice, bob)
    assert submit(alice, game["id"], 1, "D2L").status_code == 201
    aborted = alice.client.post(f"/api/v1/games/{game['id']}/abort")
    assert aborted.status_code == 200
    body = aborted.json()
    assert (body["status"], body["result"], body["termination"]) == ("finished", "*", "aborted")
    stored = Game.objects.get(pk=game["id"])
    assert stored.rated  # the setting stays; the game itself is not rated:
    assert rate_finished_game(game_id=stored.pk) == []
    assert check_game(stored, stored.turns.values_list("ply", "text")) == []
    record = archive_services.game_agn(stored.pk)
    assert '[Termination "aborted"]' in record and '[Result "*"]' in record
    (read,) = read_games(record)
    assert read.errors == []
    # The archive's import takes finished games only: an aborted one is refused, in words.
    (rejected,) = archive_imports.import_games(user=alice.user, text=record).rejected
    assert "not finished" in rejected.reason
    again = bob.client.post(f"/api/v1/games/{game['id']}/abort")
    assert (again.status_code, again.json()["code"]) == (409, "game_over")


def test_no_abort_once_both_players_have_moved(alice, bob, stranger) -> None:
    game = start_standard_game(alice, bob)
    assert stranger.client.post(f"/api/v1/games/{game['id']}/abort").status_code == 403
    submit(alice, game["id"], 1, "D2L")
    submit(bob, game["id"], 2, "D6L")
    late = bob.client.post(f"/api/v1/games/{game['id']}/abort")
    assert (late.status_code, late.json()["code"]) == (409, "abort_too_late")
    assert Game.objects.get(pk=game["id"]).status == Game.Status.ACTIVE


def test_a_pie_game_can_be_aborted_during_its_setup(alice, bob) -> None:
    pie = services.start_game(white=alice.user, black=bob.user, opening=Game.Opening.PIE)
    answer = bob.client.post(f"/api/v1/games/{pie.pk}/abort")
    assert (answer.status_code, answer.json()["termination"]) == (200, "aborted")


def test_finish_game_keeps_the_result_star_for_aborted_games_only(alice, bob) -> None:
    from games.errors import InvalidInput

    game = services.start_game(white=alice.user, black=bob.user)
    with pytest.raises(InvalidInput):
        services.finish_game(game=game, result="*", termination=Game.Termination.RESIGNATION)
    with pytest.raises(InvalidInput):
        services.finish_game(game=game, result="1-0", termination=Game.Termination.ABORTED)
    with pytest.raises(InvalidInput):  # nor may an arbiter call a game aborted
        services.adjudicate(game=game, result="*", termination=Game.Termination.ABORTED)


def test_an_aborted_tournament_board_is_a_double_forfeit() -> None:
    from games import agreements
    from tournaments import services as tournament_services
    from tournaments.models import Pairing
    from tournaments.tests.helpers import make_tournament, make_user, open_games

    organiser = make_user("orga", organiser=True)
    players = [make_user(f"p{i}") for i in range(1, 3)]
    tournament = make_tournament(organiser, players, rounds=1)
    tournament_services.start_tournament(tournament=tournament, by=organiser)
    (game,) = open_games(tournament)
    agreements.abort(game=game, player=game.black)
    board = Pairing.objects.get(game=game)
    assert (board.white_outcome, board.black_outcome) == ("-", "-")


# --- Rematch -------------------------------------------------------------------------------


def _finished_game(white: Any, black: Any, **options: Any) -> Game:
    game = services.start_game(white=white.user, black=black.user, **options)
    return services.resign(game=game, player=black.user)


def test_a_rematch_swaps_colours_keeps_the_settings_and_is_accepted(alice, bob) -> None:
    bank = TimeControl.from_hours(kind="bank", days=5, increment_hours=12, weekend_pause=True)
    old = _finished_game(alice, bob, rated=False, time_control=bank)
    made = alice.client.post(f"/api/v1/games/{old.pk}/rematch")
    assert made.status_code == 201
    challenge = made.json()
    assert (challenge["created_by"], challenge["opponent"], challenge["color"]) == (
        "alice",
        "bob",
        "black",  # alice had White
    )
    assert (challenge["clock_kind"], challenge["days_per_turn"], challenge["increment_hours"]) == (
        "bank",
        5,
        12,
    )
    assert (challenge["weekend_pause"], challenge["rated"], challenge["status"]) == (
        True,
        False,
        "open",
    )
    again = alice.client.post(f"/api/v1/games/{old.pk}/rematch")
    assert (again.status_code, again.json()["id"]) == (200, challenge["id"])

    # Bob asking for the rematch too accepts Alice's.
    accepted = bob.client.post(f"/api/v1/games/{old.pk}/rematch")
    assert accepted.status_code == 200
    assert (accepted.json()["id"], accepted.json()["status"]) == (challenge["id"], "accepted")
    new = Game.objects.get(pk=accepted.json()["game"])
    assert (new.white_id, new.black_id, new.rated) == (bob.user.pk, alice.user.pk, False)
    assert new.time_control == bank
    # Asked once more: the rematch that was played, no new challenge.
    after = bob.client.post(f"/api/v1/games/{old.pk}/rematch")
    assert (after.status_code, after.json()["game"]) == (200, new.pk)
    assert Challenge.objects.filter(rematch_of=old).count() == 1


def test_a_rematch_challenge_is_accepted_like_any_other(alice, bob) -> None:
    old = _finished_game(alice, bob)
    made = bob.client.post(f"/api/v1/games/{old.pk}/rematch").json()
    assert made["color"] == "white"  # bob had Black
    answer = alice.client.post(f"/api/v1/challenges/{made['id']}/accept")
    assert answer.status_code == 201
    game = answer.json()["game"]
    assert (game["white"], game["black"], game["status"]) == ("bob", "alice", "active")


def test_a_rematch_of_a_custom_position_starts_from_it(alice, bob) -> None:
    start = "C3W00,E5B00 w 0-0"
    old = _finished_game(alice, bob, start_position=start)
    made = alice.client.post(f"/api/v1/games/{old.pk}/rematch").json()
    game = bob.client.post(f"/api/v1/challenges/{made['id']}/accept").json()["game"]
    assert (game["start_position"], game["opening"], game["white"]) == (start, "custom", "bob")


def test_a_pie_rematch_gives_the_placing_to_the_player_who_had_black(alice, bob) -> None:
    pie = services.start_game(white=alice.user, black=bob.user, opening=Game.Opening.PIE)
    services.setup_pie(game=pie, player=alice.user, white="C3", black="E5")
    pie = services.choose_color(game=pie, player=bob.user, color="white")  # bob takes White
    services.resign(game=pie, player=alice.user)
    made = bob.client.post(f"/api/v1/games/{pie.pk}/rematch").json()
    assert (made["opening"], made["color"]) == ("pie", "black")
    game = alice.client.post(f"/api/v1/challenges/{made['id']}/accept").json()["game"]
    assert (game["status"], game["white"]) == ("setup", "alice")  # alice places again


def test_rematch_refusals(alice, bob, stranger) -> None:
    active = services.start_game(white=alice.user, black=bob.user)
    early = alice.client.post(f"/api/v1/games/{active.pk}/rematch")
    assert (early.status_code, early.json()["code"]) == (409, "game_not_over")
    old = _finished_game(alice, bob)
    assert stranger.client.post(f"/api/v1/games/{old.pk}/rematch").json()["code"] == (
        "not_a_player"
    )
    Game.objects.filter(pk=old.pk).update(imported=True)
    imported = alice.client.post(f"/api/v1/games/{old.pk}/rematch")
    assert (imported.status_code, imported.json()["code"]) == (409, "no_rematch")


# --- Notes ---------------------------------------------------------------------------------


def test_notes_are_seen_by_their_author_only(alice, bob, stranger, api) -> None:
    game = start_standard_game(alice, bob)
    url = f"/api/v1/games/{game['id']}/notes"
    assert alice.client.get(url).json() == {"text": ""}
    saved = alice.client.put(url, {"text": "Watch D4.\n  Keep legs."}, format="json")
    assert (saved.status_code, saved.json()) == (200, {"text": "Watch D4.\n  Keep legs."})
    assert alice.client.get(url).json() == {"text": "Watch D4.\n  Keep legs."}
    assert bob.client.get(url).json() == {"text": ""}
    assert stranger.client.get(url).json() == {"text": ""}
    assert api.get(url).status_code == 401
    refused = stranger.client.put(url, {"text": "peek"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_a_player")
    assert alice.client.put(url, {"text": "changed"}, format="json").status_code == 200
    assert alice.client.put(url, {"text": ""}, format="json").json() == {"text": ""}
    assert GameNote.objects.filter(game_id=game["id"]).count() == 1


def test_notes_are_bounded_and_checked(alice, bob) -> None:
    game = start_standard_game(alice, bob)
    url = f"/api/v1/games/{game['id']}/notes"
    assert alice.client.put(url, {"text": "x" * 5000}, format="json").status_code == 200
    long = alice.client.put(url, {"text": "x" * 5001}, format="json")
    assert (long.status_code, long.json()["code"]) == (400, "invalid")
    assert "text" in long.json()["fields"]
    missing = alice.client.put(url, {}, format="json")
    assert (missing.status_code, missing.json()["code"]) == (400, "invalid")
    assert alice.client.put(url, {"text": 5}, format="json").status_code == 200  # "5"
    assert alice.client.put(url, {"text": ["a"]}, format="json").status_code == 400
    assert alice.client.get(url).json() == {"text": "5"}
    assert (
        alice.client.put("/api/v1/games/999999/notes", {"text": "a"}, format="json").status_code
        == 404
    )


def test_new_endpoints_and_codes_are_in_the_schema(api) -> None:
    schema = api.get("/api/v1/schema", HTTP_ACCEPT="application/json").content.decode()
    for path in ("draw", "abort", "rematch", "notes"):
        assert f"/api/v1/games/{{game_id}}/{path}" in schema
    for code in ("no_draw_offer", "abort_too_late", "game_not_over", "no_rematch"):
        assert code in schema
    for operation in ("offer_draw", "cancel_draw_offer", "abort_game", "rematch", "save_notes"):
        assert f'"operationId": "{operation}"' in schema or f"operationId: {operation}" in schema


# --- Pages ---------------------------------------------------------------------------------


def test_the_page_forms_call_the_same_services_and_speak_russian(alice, bob, stranger) -> None:
    from django.test import Client

    from accounts.models import Profile

    game = services.start_game(white=alice.user, black=bob.user)
    page = f"/games/{game.pk}/"
    browser = Client()
    browser.force_login(stranger.user)
    assert 'id="agreements"' not in browser.get(page).content.decode()  # players only
    Profile.objects.filter(user=alice.user).update(language="ru")
    browser.force_login(alice.user)
    html = browser.get(page, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Предложить ничью" in html and "Мои заметки" in html
    browser.post(f"/games/{game.pk}/notes/", {"text": "line one\r\nline two"})
    assert services_note(game, alice) == "line one\nline two"  # CRLF as typed: one each
    browser.post(f"/games/{game.pk}/draw/", {"action": "offer"})
    assert Game.objects.get(pk=game.pk).draw_offer == "white"
    answer = browser.post(f"/games/{game.pk}/notes/", {"text": "x" * 5001}, follow=True)
    assert "5000" in answer.content.decode()  # refused, in words
    browser.force_login(bob.user)
    browser.post(f"/games/{game.pk}/draw/", {"action": "offer"})
    assert Game.objects.get(pk=game.pk).termination == "agreement"
    # Bob asks for a rematch; Alice declines it from the game page and stays there.
    browser.post(f"/games/{game.pk}/rematch/")
    browser.force_login(alice.user)
    assert "просит реванш" in browser.get(page).content.decode()
    declined = browser.post(f"/games/{game.pk}/rematch/", {"action": "decline"})
    assert declined.url == page
    assert Challenge.objects.get(rematch_of=game).status == Challenge.Status.DECLINED
    again = browser.post(f"/games/{game.pk}/rematch/", {"action": "decline"}, follow=True)
    assert "Этот вызов уже закрыт." in again.content.decode()


def services_note(game: Game, player: Any) -> str:
    from games import agreements

    return agreements.note_text(game=game, user=player.user)


# --- Races (PostgreSQL) --------------------------------------------------------------------


def _call(method: str, url: str, token: str, body: dict | None = None) -> int:
    request = urllib.request.Request(
        url,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method=method,
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def _race(calls: list[tuple[str, str, str, dict | None]]) -> list[int]:
    """Send the (method, url, token, body) requests at the same moment; their statuses."""
    barrier = threading.Barrier(len(calls))
    statuses: list[int] = []

    def run(method: str, url: str, token: str, body: dict | None) -> None:
        barrier.wait()
        statuses.append(_call(method, url, token, body))

    threads = [threading.Thread(target=run, args=call) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return sorted(statuses)


@pytest.fixture
def on_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("races are tested against PostgreSQL (CI); SQLite serialises writers")


@pytest.fixture
def finishes() -> Any:
    """The ids of the games whose game_finished signal was sent during the test."""
    seen: list[int] = []

    def count(sender: Any, game: Game, **kwargs: Any) -> None:
        seen.append(game.pk)

    signals.game_finished.connect(count, dispatch_uid="test_agreements.finishes")
    yield seen
    signals.game_finished.disconnect(dispatch_uid="test_agreements.finishes")


@pytest.mark.django_db(transaction=True)
def test_two_accepts_of_one_draw_offer_end_the_game_once(
    on_postgresql, live_server, alice, bob, finishes
) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    url = f"{live_server.url}/api/v1/games/{game.pk}/draw"
    assert _call("POST", url, alice.token) == 201
    assert _race([("POST", url, bob.token, None), ("POST", url, bob.token, None)]) == [200, 409]
    game.refresh_from_db()
    assert (game.result, game.termination) == ("1/2-1/2", "agreement")
    assert finishes == [game.pk]


@pytest.mark.django_db(transaction=True)
def test_an_accept_racing_an_abort_or_a_withdrawal_has_one_winner(
    on_postgresql, live_server, alice, bob, finishes
) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    base = f"{live_server.url}/api/v1/games/{game.pk}"
    assert _call("POST", f"{base}/draw", alice.token) == 201
    statuses = _race(
        [("POST", f"{base}/draw", bob.token, None), ("POST", f"{base}/abort", alice.token, None)]
    )
    assert statuses == [200, 409]
    game.refresh_from_db()
    assert game.termination in ("agreement", "aborted") and finishes == [game.pk]

    other = services.start_game(white=alice.user, black=bob.user)
    base = f"{live_server.url}/api/v1/games/{other.pk}"
    assert _call("POST", f"{base}/draw", alice.token) == 201
    statuses = _race(
        [("POST", f"{base}/draw", bob.token, None), ("DELETE", f"{base}/draw", alice.token, None)]
    )
    other.refresh_from_db()
    if statuses == [200, 409]:  # accepted; the withdrawal then found the game over
        assert (other.status, other.termination) == ("finished", "agreement")
    else:  # withdrawn first: Black's call made a fresh offer of Black's
        assert statuses == [200, 201]
        assert (other.status, other.draw_offer) == ("active", "black")


@pytest.mark.django_db(transaction=True)
def test_an_abort_racing_the_second_turn_has_one_winner(
    on_postgresql, live_server, alice, bob
) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    base = f"{live_server.url}/api/v1/games/{game.pk}"
    statuses = _race(
        [
            ("POST", f"{base}/turns", bob.token, {"ply": 2, "turn": "D6L"}),
            ("POST", f"{base}/abort", alice.token, None),
        ]
    )
    game.refresh_from_db()
    if game.termination == "aborted":  # the turn then found the game over
        assert (statuses, game.ply) == ([200, 409], 1)
    else:  # the turn first: too late to abort
        assert (statuses, game.ply, game.status) == ([201, 409], 2, "active")


@pytest.mark.django_db(transaction=True)
def test_both_players_asking_for_a_rematch_at_once_make_one_game(
    on_postgresql, live_server, alice, bob
) -> None:
    old = _finished_game(alice, bob)
    url = f"{live_server.url}/api/v1/games/{old.pk}/rematch"
    statuses = _race([("POST", url, alice.token, None), ("POST", url, bob.token, None)])
    assert statuses == [200, 201]  # one made it, the other accepted it
    (challenge,) = Challenge.objects.filter(rematch_of=old)
    assert challenge.status == Challenge.Status.ACCEPTED and challenge.game_id is not None
    again = _race([("POST", url, alice.token, None), ("POST", url, alice.token, None)])
    assert again == [200, 200]
    assert Challenge.objects.filter(rematch_of=old).count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_saves_of_new_notes_keep_one_row(on_postgresql, live_server, alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    url = f"{live_server.url}/api/v1/games/{game.pk}/notes"
    statuses = _race([("PUT", url, alice.token, {"text": f"take {n}"}) for n in range(4)])
    assert statuses == [200] * 4
    (note,) = GameNote.objects.filter(game=game, user=alice.user)
    assert note.text in {f"take {n}" for n in range(4)}
