"""The tournaments API: life cycle with real tokens, error codes, schema."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from tournaments import pairing
from tournaments.models import Tournament

from .helpers import finish, open_games, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(make_player):
    player = make_player("olga")
    player.user.user_permissions.add(Permission.objects.get(codename="organise_tournament"))
    return player


def create(organiser, **data):
    body = {"name": "Spring Swiss", "format": "swiss", "rounds": 3, **data}
    return organiser.client.post("/api/v1/tournaments", body, format="json")


def test_a_swiss_through_the_api(organiser, alice, bob, stranger, api) -> None:
    made = create(organiser, bye_points="0.5", tiebreaks=["BH", "SB"])
    assert made.status_code == 201, made.json()
    tournament = made.json()
    assert tournament["bye_points"] == "0.5"
    assert tournament["tiebreaks"] == ["BH", "SB"]
    assert tournament["rules_version"] == pairing.RULES_VERSION
    assert (tournament["pairing_system"], tournament["pairing_rules"]) == ("dutch", "2026")
    url = f"/api/v1/tournaments/{tournament['id']}"
    for player in (alice, bob, stranger):
        assert player.client.post(f"{url}/join").status_code == 201
    assert alice.client.post(f"{url}/join").json()["code"] == "already_joined"
    assert alice.client.post(f"{url}/start").json()["code"] == "not_organiser"
    started = start(organiser, url)
    assert (started.status_code, started.json()["status"]) == (202, "starting")
    running = api.get(url).json()  # the start job ran after the answer
    assert (running["status"], running["start_error"]) == ("running", "")
    assert [p["seed"] for p in running["participants"]] == [1, 2, 3]

    round_one = api.get(f"{url}/rounds/1").json()
    assert len(round_one["boards"]) == 2 and round_one["boards"][1]["black"] is None
    assert round_one["boards"][1]["white"]["result"] == "U"
    (game,) = open_games(Tournament.objects.get(pk=tournament["id"]))
    finish(game, "1-0")
    standings = api.get(f"{url}/standings").json()
    assert standings["tiebreaks"] == ["BH", "SB"]
    assert sorted(row["points"] for row in standings["standings"]) == ["0", "0.5", "1"]

    trf = api.get(f"{url}/trf")
    assert trf["Content-Type"].startswith("text/plain")
    document = pairing.read_trf(trf.content.decode())
    assert document.name == "Spring Swiss"
    assert document.tournament.rounds_played == 1 and document.tournament.total_rounds == 3
    records = api.get(f"{url}/games")
    assert records.status_code == 200 and '[Result "1-0"]' in records.content.decode()


def test_listing_filters_by_status(organiser, api) -> None:
    create(organiser, name="Upcoming one")
    listed = api.get("/api/v1/tournaments?status=upcoming").json()
    assert [t["name"] for t in listed["results"]] == ["Upcoming one"]
    assert api.get("/api/v1/tournaments?status=running").json()["results"] == []
    bad = api.get("/api/v1/tournaments?status=soon")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"


def test_players_without_the_permission_cannot_create(alice, api) -> None:
    refused = alice.client.post(
        "/api/v1/tournaments", {"name": "X", "format": "swiss", "rounds": 3}, format="json"
    )
    assert (refused.status_code, refused.json()["code"]) == (403, "cannot_organise")
    anonymous = api.post("/api/v1/tournaments", {"name": "X"}, format="json")
    assert anonymous.status_code == 401


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"format": "swiss", "rounds": None}, "rounds"),
        ({"format": "roundrobin", "rounds": 4}, "rounds"),
        ({"format": "ladder"}, "format"),
        ({"tiebreaks": ["BH", "BH"]}, "tiebreaks"),
        ({"tiebreaks": ["XYZ"]}, "tiebreaks"),
        ({"bye_points": "2"}, "bye_points"),
        ({"days_per_turn": 0}, "days_per_turn"),
        ({"starts_at": "2001-01-01T00:00:00Z"}, "starts_at"),
        ({"name": ""}, "name"),
        ({"max_players": 1}, "max_players"),
        ({"max_players": 10**12}, "max_players"),
        ({"rounds": 10**12}, "rounds"),
        ({"days_per_turn": 10**12}, "days_per_turn"),
    ],
)
def test_bad_settings_are_400_with_the_field(organiser, data, field) -> None:
    answer = create(organiser, **data)
    assert answer.status_code == 400, answer.json()
    assert answer.json()["code"] == "invalid"
    assert field in answer.json()["fields"]


def test_unknown_tournament_and_round_are_404(organiser, api) -> None:
    assert api.get("/api/v1/tournaments/999999").json()["code"] == "not_found"
    url = f"/api/v1/tournaments/{create(organiser).json()['id']}"
    answer = api.get(f"{url}/rounds/1")
    assert (answer.status_code, answer.json()["code"]) == (404, "not_found")
    assert api.get(f"{url}/standings").json()["standings"] == []


def test_withdraw_and_join_errors(organiser, alice, bob) -> None:
    url = f"/api/v1/tournaments/{create(organiser, max_players=2, late_entries=False).json()['id']}"
    assert alice.client.post(f"{url}/withdraw").json()["code"] == "not_joined"
    alice.client.post(f"{url}/join")
    organiser.client.post(f"{url}/join")
    full = bob.client.post(f"{url}/join")
    assert (full.status_code, full.json()["code"]) == (409, "tournament_full")
    assert alice.client.post(f"{url}/withdraw").status_code == 200
    assert bob.client.post(f"{url}/join").status_code == 201
    start(organiser, url)
    assert organiser.client.get(url).json()["status"] == "running"
    late = alice.client.post(f"{url}/join")
    assert (late.status_code, late.json()["code"]) == (409, "registration_closed")


def test_a_late_entry_through_the_api_and_on_the_page(organiser, alice, bob, stranger) -> None:
    made = create(organiser, rounds=4).json()
    assert made["late_entries"] is True  # the default of a Swiss
    url = f"/api/v1/tournaments/{made['id']}"
    alice.client.post(f"{url}/join")
    bob.client.post(f"{url}/join")
    start(organiser, url)
    assert organiser.client.get(url).json()["registration_open"] is True
    page = stranger.client.get(f"/tournaments/{made['id']}/").content.decode()
    assert "until 2 rounds are paired" in page
    joined = stranger.client.post(f"{url}/join")
    assert joined.status_code == 201, joined.json()
    entrant = next(p for p in joined.json()["participants"] if p["username"] == "mallory")
    assert entrant["seed"] == 3
    closed = create(organiser, late_entries=False).json()
    assert closed["late_entries"] is False


def test_half_point_byes_through_the_api_and_the_page(organiser, alice, bob) -> None:
    made = create(organiser, rounds=3, half_point_byes=1).json()
    url = f"/api/v1/tournaments/{made['id']}"
    assert made["half_point_byes"] == 1
    for player in (alice, bob):
        player.client.post(f"{url}/join")
    asked = alice.client.post(f"{url}/byes", {"round": 2}, format="json")
    assert (asked.status_code, asked.json()) == (201, {"rounds": [2]})
    detail = alice.client.get(url).json()
    assert {p["username"]: p["half_point_byes"] for p in detail["participants"]} == {
        "alice": [2],
        "bob": [],
    }
    refused = alice.client.post(f"{url}/byes", {"round": 1}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "bye_refused")
    assert "1 half-point bye" in refused.json()["error"]
    bad = alice.client.post(f"{url}/byes", {"round": "soon"}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid")
    assert alice.client.delete(f"{url}/byes/2").json() == {"rounds": []}
    # The page: bob asks for round 1 with the form, sees it, and takes it back.
    page = Client()
    page.force_login(bob.user)
    detail_page = f"/tournaments/{made['id']}/"
    assert "Request a half-point bye" in page.get(detail_page).content.decode()
    answer = page.post(f"{detail_page}bye/", {"round": "1"}, follow=True).content.decode()
    assert "Half-point bye requested for round 1." in answer
    assert "Cancel the half-point bye in round 1" in answer
    answer = page.post(f"{detail_page}bye/", {"round": "3"}, follow=True).content.decode()
    assert "never the last round" in answer
    answer = page.post(f"{detail_page}cancel-bye/", {"round": "1"}, follow=True).content.decode()
    assert "Half-point bye for round 1 cancelled." in answer
    assert bob.client.get(url).json()["participants"][1]["half_point_byes"] == []


def test_organiser_actions_through_the_api_and_the_pages(
    organiser, alice, bob, stranger, make_player
) -> None:
    made = create(organiser, rounds=2).json()
    url = f"/api/v1/tournaments/{made['id']}"
    for player in (alice, bob, stranger, make_player("carol")):
        player.client.post(f"{url}/join")
    start(organiser, url)
    marked = organiser.client.post(
        f"{url}/absent", {"username": "bob", "absent": True}, format="json"
    )
    assert marked.status_code == 200, marked.json()
    assert {p["username"]: p["absent"] for p in marked.json()["participants"]}["bob"] is True
    refused = alice.client.post(
        f"{url}/absent", {"username": "bob", "absent": False}, format="json"
    )
    assert (refused.status_code, refused.json()["code"]) == (403, "not_organiser")
    nobody = organiser.client.post(
        f"{url}/absent", {"username": "zed", "absent": True}, format="json"
    )
    assert nobody.status_code == 404
    board = next(b for b in organiser.client.get(f"{url}/rounds/1").json()["boards"] if b["game"])
    decided = organiser.client.post(
        f"{url}/rounds/1/boards/{board['board']}/adjudicate", {"result": "0-1"}, format="json"
    )
    assert decided.status_code == 200, decided.json()
    shown = next(b for b in decided.json()["boards"] if b["board"] == board["board"])
    assert (shown["white"]["result"], shown["black"]["result"]) == ("0", "1")
    again = organiser.client.post(
        f"{url}/rounds/1/boards/{board['board']}/adjudicate", {"result": "1-0"}, format="json"
    )
    assert (again.status_code, again.json()["code"]) == (409, "wrong_state")
    # The pages: the organiser brings bob back from the standings table.
    page = Client()
    page.force_login(organiser.user)
    detail = f"/tournaments/{made['id']}/"
    assert "Bring back" in page.get(detail).content.decode()
    bob_entry = Tournament.objects.get(pk=made["id"]).participants.get(user__username="bob")
    answer = page.post(f"{detail}present/", {"participant": bob_entry.pk}, follow=True)
    assert "Back in the pairings." in answer.content.decode()
    bob_entry.refresh_from_db()
    assert bob_entry.absent is False
    assert "Adjudicate" not in Client().get(f"{detail}rounds/1/").content.decode()
    assert "Adjudicate" in page.get(f"{detail}rounds/1/").content.decode()
    open_board = next(
        b["board"]
        for b in organiser.client.get(f"{url}/rounds/1").json()["boards"]
        if b["game"] and not b["white"]["result"]
    )
    answer = page.post(
        f"{detail}adjudicate/", {"round": 1, "board": open_board, "result": "+-"}, follow=True
    )
    assert answer.redirect_chain[-1][0] == f"{detail}rounds/1/"
    assert "Board decided." in answer.content.decode()
    assert organiser.client.get(f"{url}/rounds/1").json()["finished"] is True


def test_schema_documents_the_tournament_endpoints(api) -> None:
    schema = api.get("/api/v1/schema?format=json").json()
    for path in (
        "/api/v1/tournaments",
        "/api/v1/tournaments/{tournament_id}",
        "/api/v1/tournaments/{tournament_id}/join",
        "/api/v1/tournaments/{tournament_id}/withdraw",
        "/api/v1/tournaments/{tournament_id}/standings",
        "/api/v1/tournaments/{tournament_id}/rounds/{number}",
        "/api/v1/tournaments/{tournament_id}/trf",
    ):
        assert path in schema["paths"], path


def test_a_tournament_with_a_time_bank_starts_its_games_with_that_clock(
    organiser, alice, bob
) -> None:
    clock = {"kind": "bank", "days": 10, "increment_hours": 36, "weekend_pause": True}
    made = create(organiser, format="roundrobin", rounds=None, clock=clock)
    assert made.status_code == 201, made.json()
    shown = made.json()
    assert (shown["days_per_turn"], shown["clock_kind"], shown["increment_hours"]) == (
        10, "bank", 36,
    )  # fmt: skip
    assert shown["weekend_pause"] is True
    url = f"/api/v1/tournaments/{shown['id']}"
    for player in (alice, bob):
        assert player.client.post(f"{url}/join").status_code == 201
    assert start(organiser, url).status_code == 202
    (game,) = open_games(Tournament.objects.get(pk=shown["id"]))
    assert game.time_control == Tournament.objects.get(pk=shown["id"]).time_control
    answer = alice.client.get(f"/api/v1/games/{game.pk}").json()["clock"]
    assert {"kind": "bank", "days": 10, "increment_hours": 36.0, "weekend_pause": True}.items() <= (
        answer.items()
    )
    # Without a clock object: days_per_turn days per turn, as before.
    legacy = create(organiser, days_per_turn=4).json()
    assert (legacy["clock_kind"], legacy["days_per_turn"], legacy["increment_hours"]) == (
        "per_turn", 4, 0,
    )  # fmt: skip
    refused = create(organiser, clock={"kind": "per_turn", "days": 4})
    assert refused.status_code == 400 and "clock" in refused.json()["fields"]


@pytest.mark.parametrize(("system", "rules"), [("burstein", "2026"), ("dutch", "2017")])
def test_a_swiss_pairs_by_the_system_and_rules_it_was_created_with(
    organiser, alice, bob, stranger, system, rules
) -> None:
    made = create(organiser, pairing_system=system, pairing_rules=rules)
    assert made.status_code == 201, made.json()
    tournament = made.json()
    expected = (
        pairing.RULES_VERSIONS[rules] if system == "dutch" else pairing.SYSTEM_VERSIONS[system]
    )
    assert tournament["rules_version"] == expected
    url = f"/api/v1/tournaments/{tournament['id']}"
    for player in (alice, bob, stranger):
        assert player.client.post(f"{url}/join").status_code == 201
    started = start(organiser, url)
    assert started.status_code == 202, started.json()
    assert Tournament.objects.get(pk=tournament["id"]).current_round == 1


def test_an_unknown_pairing_system_is_a_field_error(organiser) -> None:
    made = create(organiser, pairing_system="monrad")
    assert made.status_code == 400 and "pairing_system" in made.json()["fields"]
