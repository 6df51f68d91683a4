"""Conditional turns through the API: set, read, delete, and played by the opponent's turn.

Alice (White) plays D2L; while Bob thinks, she prepares her replies.  Bob's turn that
begins one of her lines brings her reply in the very answer to his POST.
"""

from __future__ import annotations

from typing import Any

import pytest

from clocks.timecontrol import TimeControl
from engine import Position
from games import services
from games.models import ConditionalLines, Game, Turn
from games.tests.helpers import submit
from notifications.models import Kind, Notification

pytestmark = pytest.mark.django_db


def url(game: Game | int) -> str:
    return f"/api/v1/games/{getattr(game, 'pk', game)}/conditional"


def put(player: Any, game: Game, ply: int, lines: list[list[str]]) -> Any:
    return player.client.put(url(game), {"ply": ply, "lines": lines}, format="json")


@pytest.fixture
def game(alice, bob) -> Game:
    """Alice (White) has played D2L: Bob (Black) is to move, Alice waits."""
    game = services.start_game(white=alice.user, black=bob.user)
    assert submit(alice, game.pk, 1, "D2L").status_code == 201
    return game


def test_lines_are_merged_into_a_tree_and_answered_in_canonical_notation(alice, game) -> None:
    answer = put(
        alice,
        game,
        2,
        [["d6l", "d2p"], ["D6L", "D2P", "D6P", "D3"], ["D6P", "D2P"], ["D6P", "D2P"]],
    )
    assert answer.status_code == 200, answer.json()
    # The short line is a beginning of the long one: the tree has two leaves.
    assert answer.json() == {"ply": 2, "lines": [["D6L", "D2P", "D6P", "D3"], ["D6P", "D2P"]]}
    assert alice.client.get(url(game)).json() == answer.json()
    row = ConditionalLines.objects.get(game=game)
    assert row.tree["D6L"]["reply"] == "D2P" and row.ply == 2


def test_the_reply_is_in_the_opponents_answer_and_the_lines_are_cut(alice, bob, game) -> None:
    put(alice, game, 2, [["D6L", "D2P", "D6P", "D3"], ["D6P", "D2P"]])
    answer = submit(bob, game.pk, 2, "D6L")
    assert answer.status_code == 201
    body = answer.json()
    assert body["turns"] == ["D2L", "D6L", "D2P"] and body["ply"] == 3
    assert body["to_move"] == "black"
    assert alice.client.get(f"/api/v1/games/{game.pk}").json() == body
    reply = Turn.objects.get(game=game, ply=3)
    assert reply.player_id == alice.user.pk and reply.automatic
    assert not Turn.objects.get(game=game, ply=2).automatic
    # What is left: the continuation after the reply, for Bob's next turn.
    assert alice.client.get(url(game)).json() == {"ply": 4, "lines": [["D6P", "D3"]]}
    # And it goes on: Bob's D6P brings D3.
    assert submit(bob, game.pk, 4, "D6P").json()["turns"][-2:] == ["D6P", "D3"]
    assert alice.client.get(url(game)).status_code == 404  # the line is used up
    assert services.replay(Game.objects.get(pk=game.pk)) == Position.from_string(
        Game.objects.get(pk=game.pk).position
    )


def test_an_opponent_turn_that_begins_no_line_deletes_them(alice, bob, game) -> None:
    put(alice, game, 2, [["D6L", "D2P"]])
    answer = submit(bob, game.pk, 2, "D6P")
    assert answer.status_code == 201 and answer.json()["turns"] == ["D2L", "D6P"]
    assert answer.json()["to_move"] == "white"
    assert not ConditionalLines.objects.filter(game=game).exists()
    assert alice.client.get(url(game)).status_code == 404
    # The next turns need not look for lines any more.
    assert not Game.objects.get(pk=game.pk).has_conditional_lines


def test_notifications_say_the_reply_was_played_automatically(alice, bob, game) -> None:
    Notification.objects.all().delete()
    put(alice, game, 2, [["D6L", "D2P"]])
    submit(bob, game.pk, 2, "D6L")
    # Alice is not told it is her turn (her reply is already played)...
    assert not Notification.objects.filter(user=alice.user, kind=Kind.YOUR_TURN).exists()
    # ...Bob is, and told that Alice's turn was automatic.
    notice = Notification.objects.get(user=bob.user, kind=Kind.YOUR_TURN)
    assert notice.params["automatic_turn"] == "D2P"
    assert "D2P" in notice.message and "automatically" in notice.message


def test_a_put_replaces_the_lines_and_an_empty_list_or_delete_removes_them(alice, game) -> None:
    put(alice, game, 2, [["D6L", "D2P"]])
    assert put(alice, game, 2, [["D6P", "D3"]]).json()["lines"] == [["D6P", "D3"]]
    assert ConditionalLines.objects.get(game=game).tree == {"D6P": {"reply": "D3", "next": {}}}
    assert put(alice, game, 2, []).json() == {"ply": 2, "lines": []}
    assert not ConditionalLines.objects.exists()
    put(alice, game, 2, [["D6L", "D2P"]])
    assert alice.client.delete(url(game)).status_code == 204
    assert alice.client.get(url(game)).status_code == 404
    assert alice.client.delete(url(game)).status_code == 204  # nothing left: still fine


def test_nobody_else_may_read_or_set_them(alice, bob, stranger, game, api) -> None:
    put(alice, game, 2, [["D6L", "D2P"]])
    for player in (bob, stranger):
        answer = player.client.get(url(game))
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert api.get(url(game)).status_code == 401
    # Bob is to move: conditional turns are for the player who waits.
    refused = put(bob, game, 2, [["D2P", "D6P"]])
    assert refused.status_code == 403 and refused.json()["code"] == "not_waiting"
    refused = put(stranger, game, 2, [["D6L", "D2P"]])
    assert refused.status_code == 403 and refused.json()["code"] == "not_a_player"
    assert stranger.client.delete(url(game)).status_code == 403
    assert bob.client.delete(url(game)).status_code == 204  # his own (none): hers stay
    assert ConditionalLines.objects.filter(game=game, author=alice.user).exists()
    assert alice.client.get(url(999_999)).status_code == 404


def test_every_bad_line_is_named_with_its_index_and_reason(alice, game) -> None:
    illegal = put(alice, game, 2, [["D6L", "D2P"], ["D6P", "D2-D4"]])
    assert illegal.status_code == 422
    body = illegal.json()
    assert body["code"] == "illegal_turn" and (body["line"], body["index"]) == (1, 1)
    assert (
        body["turn"] == "D2-D4"
        and body["reason"] == "D2 cannot reach D4 in 1 step through empty cells"
    )
    assert "lines[1][1]" in body["error"]

    garbage = put(alice, game, 2, [["D6L", "garbage!"]])
    assert garbage.status_code == 400 and garbage.json()["code"] == "invalid_turn"
    assert (garbage.json()["line"], garbage.json()["index"]) == (0, 1)

    odd = put(alice, game, 2, [["D6L", "D2P"], ["D6L", "D2P", "D6P"]])
    assert odd.status_code == 400 and odd.json()["code"] == "invalid" and odd.json()["line"] == 1

    conflict = put(alice, game, 2, [["D6L", "D2P"], ["D6P", "D3"], ["D6L", "D3"]])
    assert conflict.status_code == 422 and conflict.json()["code"] == "conditional_conflict"
    assert (conflict.json()["line"], conflict.json()["conflicts_with"]) == (2, 0)

    stale = put(alice, game, 1, [["D6L", "D2P"]])
    assert stale.status_code == 409 and stale.json()["code"] == "stale_ply"
    assert stale.json()["expected_ply"] == 2

    for body in ({"ply": 2}, {"ply": 2, "lines": "D6L D2P"}, {"ply": 2, "lines": [[""]]}):
        assert alice.client.put(url(game), body, format="json").status_code == 400, body
    assert not ConditionalLines.objects.exists()


def test_no_reply_after_a_turn_that_ends_the_game(alice, bob) -> None:
    # Black to move, and D4xD3 takes White's last adaptoid.
    game = services.start_game(white=alice.user, black=bob.user, start_position="D3W00,D4B11 b 0-0")
    after_d4l = Position.from_string(game.position)
    after_d4l.push_text("D4L")
    white_reply = min(str(turn) for turn in after_d4l.legal_turns)
    over = put(alice, game, 1, [["D4xD3", "D3L"]])
    assert over.status_code == 422 and over.json()["index"] == 1
    assert put(alice, game, 1, [["D4L", white_reply]]).status_code == 200
    answer = submit(bob, game.pk, 1, "D4xD3")
    assert answer.json()["status"] == "finished" and answer.json()["turns"] == ["D4xD3"]
    assert not ConditionalLines.objects.exists()
    assert put(alice, game, 2, [["D4L", white_reply]]).json()["code"] == "game_over"


def test_the_reply_is_charged_on_the_clock_like_any_turn(alice, bob) -> None:
    bank = TimeControl.from_hours(kind="bank", days=3, increment_hours=2, weekend_pause=False)
    game = services.start_game(white=alice.user, black=bob.user, time_control=bank)
    submit(alice, game.pk, 1, "D2L")
    before = Game.objects.get(pk=game.pk).white_clock
    put(alice, game, 2, [["D6L", "D2P"]])
    clock = submit(bob, game.pk, 2, "D6L").json()["clock"]
    assert clock["running"] == "black" and clock["deadline"] is not None
    # White's second turn was charged: the increment came again (capped at the bank).
    assert Game.objects.get(pk=game.pk).white_clock >= before
    assert clock["white_remaining"] == Game.objects.get(pk=game.pk).white_clock


def test_a_reply_that_turned_illegal_drops_the_lines_and_the_opponents_turn_stands(
    alice, bob, game, caplog
) -> None:
    put(alice, game, 2, [["D6L", "D2P"]])
    # Tampered with behind the service's back: the stored reply cannot be played.
    ConditionalLines.objects.filter(game=game).update(tree={"D6L": {"reply": "D2-D4", "next": {}}})
    answer = submit(bob, game.pk, 2, "D6L")
    assert answer.status_code == 201 and answer.json()["turns"] == ["D2L", "D6L"]
    assert answer.json()["to_move"] == "white"
    assert not ConditionalLines.objects.exists()
    assert "refused" in caplog.text


# --- The pages ---------------------------------------------------------------------------


def test_the_waiting_player_adds_lines_on_the_board_and_sees_them_on_the_game_page(
    client, alice, bob, game
) -> None:
    client.force_login(alice.user)
    page = client.get(f"/games/{game.pk}/")
    assert b'id="conditional"' in page.content and b"conditional-edit" in page.content
    # The play panel's form adds one turn at a time to the line in the address.
    step = client.get(f"/games/{game.pk}/conditional/", {"line": "D6L", "turn": "d2p"})
    assert step.status_code == 302 and step["Location"].endswith("?line=D6L+d2p")
    board = client.get(step["Location"])
    assert board.status_code == 200 and b"conditional-add" in board.content
    assert b'id="legal-turns"' in board.content
    saved = client.post(f"/games/{game.pk}/conditional/", {"action": "add", "line": "D6L d2p"})
    assert saved.status_code == 302
    client.post(f"/games/{game.pk}/conditional/", {"action": "add", "line": "D6P D3"})
    assert alice.client.get(url(game)).json()["lines"] == [["D6L", "D2P"], ["D6P", "D3"]]
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "2. D6L" in page and "3. D2P" in page and "conditional-delete" in page
    # A conflicting line is refused in words; the lines stay.
    refused = client.post(
        f"/games/{game.pk}/conditional/", {"action": "add", "line": "D6L D3"}, follow=True
    )
    assert "one reply per turn" in refused.content.decode()
    assert len(ConditionalLines.objects.get(game=game).tree) == 2
    client.post(f"/games/{game.pk}/conditional/", {"action": "delete"})
    assert not ConditionalLines.objects.exists()


def test_the_player_to_move_gets_no_conditional_board(client, bob, game) -> None:
    client.force_login(bob.user)
    assert b'id="conditional"' not in client.get(f"/games/{game.pk}/").content
    answer = client.get(f"/games/{game.pk}/conditional/")
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/"


def test_a_bots_turn_brings_the_reply_too(alice) -> None:
    from bots import services as bots

    bot = bots.ensure_builtin_bots()[0]
    game = services.start_game(white=alice.user, black=bot)
    services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    # A reply ready for whatever the bot plays.
    position = Position.from_string(Game.objects.get(pk=game.pk).position)
    lines = []
    for turn in sorted(position.legal_turns, key=str):
        position.push(turn)
        lines.append([str(turn), min(str(reply) for reply in position.legal_turns)])
        position.pop()
    assert put(alice, game, 2, lines).status_code == 200
    outcome = bots.play_bot_turn(game_id=game.pk, ply=2)
    assert outcome.startswith("played")
    bot_turn, reply = Turn.objects.filter(game=game, ply__gte=2).order_by("ply")
    assert bot_turn.player_id == bot.pk and not bot_turn.automatic
    assert reply.player_id == alice.user.pk and reply.automatic
    assert [bot_turn.text, reply.text] in lines
    assert Game.objects.get(pk=game.pk).who_must_act() == bot.pk


def test_in_a_tournament_game(alice, bob, django_user_model) -> None:
    from tournaments import services as tournaments
    from tournaments.models import Pairing

    organiser = django_user_model.objects.create_user("organiser", is_staff=True)
    cup = tournaments.create_tournament(organiser=organiser, name="Cup", format="roundrobin")
    for player in (alice, bob):
        tournaments.join(tournament=cup, user=player.user)
    tournaments.start_tournament(tournament=cup, by=organiser)
    game = Pairing.objects.get(round__tournament=cup).game
    white, black = (alice, bob) if game.white_id == alice.user.pk else (bob, alice)
    assert submit(white, game.pk, 1, "D2L").status_code == 201
    assert put(white, game, 2, [["D6L", "D2P"]]).status_code == 200
    assert submit(black, game.pk, 2, "D6L").json()["turns"] == ["D2L", "D6L", "D2P"]
