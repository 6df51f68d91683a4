"""Challenges: create, accept, decline, cancel, open challenges, permissions."""

from __future__ import annotations

import pytest

from games.models import Challenge, Game

pytestmark = pytest.mark.django_db


def _challenge(player, **fields):
    body = {
        "opponent": "bob",
        "color": "white",
        "opening": "standard",
        "days_per_turn": 2,
        "rated": False,
    }
    body.update(fields)
    return player.client.post("/api/v1/challenges", body, format="json")


def test_challenge_and_accept_creates_the_game_with_the_requested_colours(alice, bob) -> None:
    made = _challenge(alice, color="black")
    assert made.status_code == 201
    challenge = made.json()
    assert challenge["created_by"] == "alice" and challenge["opponent"] == "bob"
    assert (challenge["status"], challenge["days_per_turn"], challenge["rated"]) == (
        "open",
        2,
        False,
    )

    accepted = bob.client.post(f"/api/v1/challenges/{challenge['id']}/accept")
    assert accepted.status_code == 201
    game = accepted.json()["game"]
    assert (game["white"], game["black"], game["status"]) == ("bob", "alice", "active")
    assert (game["rated"], game["days_per_turn"], game["deadline"] is not None) == (False, 2, True)
    assert Challenge.objects.get(pk=challenge["id"]).status == "accepted"


def test_random_colour_gives_each_player_one_colour(alice, bob) -> None:
    made = _challenge(alice, color="random")
    game = bob.client.post(f"/api/v1/challenges/{made.json()['id']}/accept").json()["game"]
    assert {game["white"], game["black"]} == {"alice", "bob"}


def test_open_challenge_can_be_accepted_by_anyone_but_its_creator(alice, stranger) -> None:
    made = _challenge(alice, opponent=None)
    assert made.status_code == 201 and made.json()["opponent"] is None
    own = alice.client.post(f"/api/v1/challenges/{made.json()['id']}/accept")
    assert own.status_code == 409 and own.json()["code"] == "own_challenge"
    listed = stranger.client.get("/api/v1/challenges?open=true").json()
    assert [c["id"] for c in listed["results"]] == [made.json()["id"]]
    accepted = stranger.client.post(f"/api/v1/challenges/{made.json()['id']}/accept")
    assert accepted.status_code == 201
    assert {accepted.json()["game"]["white"], accepted.json()["game"]["black"]} == {
        "alice",
        "mallory",
    }
    again = stranger.client.post(f"/api/v1/challenges/{made.json()['id']}/accept")
    assert again.status_code == 409 and again.json()["code"] == "challenge_closed"


def test_a_second_player_accepting_a_taken_open_challenge_hears_it_is_closed(
    alice, bob, stranger
) -> None:
    made = _challenge(alice, opponent=None).json()["id"]
    assert stranger.client.post(f"/api/v1/challenges/{made}/accept").status_code == 201
    late = bob.client.post(f"/api/v1/challenges/{made}/accept")
    assert late.status_code == 409 and late.json()["code"] == "challenge_closed"


def test_a_stranger_cannot_accept_or_decline_a_directed_challenge(alice, bob, stranger) -> None:
    challenge_id = _challenge(alice).json()["id"]
    for action in ("accept", "decline", "cancel"):
        answer = stranger.client.post(f"/api/v1/challenges/{challenge_id}/{action}")
        assert answer.status_code == 403, action
        assert answer.json()["code"] == "not_your_challenge"
    assert not Game.objects.exists()


def test_decline_and_cancel(alice, bob) -> None:
    declined = bob.client.post(f"/api/v1/challenges/{_challenge(alice).json()['id']}/decline")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    challenge_id = _challenge(alice).json()["id"]
    cancelled = alice.client.post(f"/api/v1/challenges/{challenge_id}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    late = bob.client.post(f"/api/v1/challenges/{challenge_id}/accept")
    assert late.status_code == 409 and late.json()["code"] == "challenge_closed"


def test_list_shows_my_incoming_and_outgoing_challenges_only(alice, bob, stranger) -> None:
    outgoing = _challenge(alice).json()["id"]
    incoming = _challenge(bob, opponent="alice").json()["id"]
    _challenge(stranger, opponent="bob")
    listed = alice.client.get("/api/v1/challenges")
    assert listed.status_code == 200
    assert sorted(c["id"] for c in listed.json()["results"]) == sorted([outgoing, incoming])


@pytest.mark.parametrize(
    ("fields", "status", "code"),
    [
        ({"opponent": "nobody"}, 400, "unknown_player"),
        ({"opponent": "alice"}, 400, "invalid"),
        ({"color": "green"}, 400, "invalid"),
        ({"opening": "sicilian"}, 400, "invalid"),
        ({"days_per_turn": 0}, 400, "invalid"),
        ({"days_per_turn": 31}, 400, "invalid"),
        ({"days_per_turn": "soon"}, 400, "invalid"),
        ({"rated": "perhaps"}, 400, "invalid"),
    ],
)
def test_bad_challenges_are_refused_with_a_code(alice, bob, fields, status, code) -> None:
    answer = _challenge(alice, **fields)
    assert answer.status_code == status
    assert answer.json()["code"] == code and answer.json()["error"]
    assert not Challenge.objects.exists()


def test_the_longest_time_control_is_the_same_at_every_door(alice, bob) -> None:
    # clocks.timecontrol.MAX_DAYS is the one definition; each entry point keeps to it.
    from clocks.forms import TimeControlForm
    from clocks.timecontrol import MAX_DAYS, TimeControl

    for days, created in ((MAX_DAYS, 201), (MAX_DAYS + 1, 400)):
        assert _challenge(alice, days_per_turn=days).status_code == created
        bank = {"kind": "bank", "days": days}
        assert _challenge(alice, clock=bank).status_code == created
        form = TimeControlForm({"clock_kind": "bank", "days_per_turn": days})
        assert form.is_valid() is (created == 201)
        assert (TimeControl.bank(days).errors() == {}) is (created == 201)


def test_challenges_need_a_token(api) -> None:
    assert api.get("/api/v1/challenges").status_code == 401
    assert api.post("/api/v1/challenges", {}, format="json").status_code == 401


def test_a_retried_post_with_its_idempotency_key_makes_one_challenge(alice, bob) -> None:
    body = {"opponent": "bob", "color": "white"}
    first = alice.client.post(
        "/api/v1/challenges", body, format="json", HTTP_IDEMPOTENCY_KEY="retry-me-1"
    )
    again = alice.client.post(
        "/api/v1/challenges", body, format="json", HTTP_IDEMPOTENCY_KEY="retry-me-1"
    )
    other = alice.client.post(
        "/api/v1/challenges", body, format="json", HTTP_IDEMPOTENCY_KEY="retry-me-2"
    )
    assert (first.status_code, again.status_code, other.status_code) == (201, 200, 201)
    assert again.json() == first.json()
    assert other.json()["id"] != first.json()["id"]
    # Keys are per player: Bob's same key is his own.
    bobs = bob.client.post(
        "/api/v1/challenges",
        {"opponent": "alice"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="retry-me-1",
    )
    assert bobs.status_code == 201


def test_an_idempotency_key_that_is_not_printable_ascii_is_refused(alice) -> None:
    answer = alice.client.post(
        "/api/v1/challenges", {"opponent": None}, format="json", HTTP_IDEMPOTENCY_KEY="\u00e9" * 3
    )
    assert answer.status_code == 400 and "Idempotency-Key" in answer.json()["fields"]
