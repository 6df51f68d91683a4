"""Arbiter control: draft rounds (preview, edit with the checker's warnings, publish) and
forbidden pairs (listed by the organiser, or players of the same club)."""

from __future__ import annotations

import pytest

from core.testing import at_once
from tournaments import arbiter, errors, selectors, services
from tournaments.models import DraftRound, Pairing, Round, Tournament

from .helpers import finish, jobs_run_here, make_tournament, make_user, open_games, pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return make_user("orga", organiser=True)


@pytest.fixture
def players():
    return [make_user(f"p{i}", rating=2000 - 10 * i) for i in range(1, 6)]  # p1 = seed 1


def _started(organiser, players, **options) -> Tournament:
    tournament = make_tournament(organiser, players, arbiter_publishes=True, **options)
    services.start_tournament(tournament=tournament, by=organiser)
    return Tournament.objects.get(pk=tournament.pk)


def test_the_pairing_waits_as_a_draft_without_games(organiser, players) -> None:
    tournament = _started(organiser, players)
    draft = arbiter.draft_of(tournament)
    assert draft is not None and draft.number == 1
    assert tournament.current_round == 0  # not claimed until published
    assert not Round.objects.filter(tournament=tournament).exists()
    assert sorted(s for board in draft.boards for s in board if s) == [1, 2, 3, 4, 5]
    assert draft.boards[-1][1] is None  # the bye last
    assert arbiter.warnings(tournament, draft) == []
    # The heartbeat's advance pairs nothing twice and keeps the draft.
    assert services.advance(tournament_id=tournament.pk) == "idle"
    assert DraftRound.objects.get(tournament=tournament).boards == draft.boards


def test_publish_creates_the_round_and_its_games_once(organiser, players) -> None:
    tournament = _started(organiser, players)
    draft = arbiter.draft_of(tournament)
    with jobs_run_here():
        arbiter.publish(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    assert tournament.current_round == 1
    assert [list(p) for p in pairs(tournament, 1)] == [[w, b or 0] for w, b in draft.boards]
    assert len(open_games(tournament)) == 2
    assert not DraftRound.objects.filter(tournament=tournament).exists()
    assert arbiter.publish_now(tournament_id=tournament.pk, number=1) is None  # a twin
    with pytest.raises(errors.NoDraftRound):
        arbiter.publish(tournament=tournament, by=organiser)


def test_the_next_round_is_a_draft_again_once_the_round_is_over(organiser, players) -> None:
    tournament = _started(organiser, players)
    with jobs_run_here():
        arbiter.publish(tournament=tournament, by=organiser)
    with jobs_run_here():
        for game in open_games(tournament):
            finish(game, "1-0")
    draft = arbiter.draft_of(tournament)
    assert draft is not None and draft.number == 2
    assert Tournament.objects.get(pk=tournament.pk).current_round == 1


def test_edits_and_the_checkers_warnings(organiser, players) -> None:
    tournament = _started(organiser, players)
    with jobs_run_here():
        arbiter.publish(tournament=tournament, by=organiser)
    with jobs_run_here():
        for game in open_games(tournament):
            finish(game, "1-0")
    draft = arbiter.draft_of(tournament)
    round1 = pairs(tournament, 1)
    (w1, b1), bye1 = round1[0], next(w for w, b in round1 if b == 0)

    # Swap colours: allowed, no warning in round 2.
    before = [list(b) for b in draft.boards]
    draft = arbiter.edit_draft(tournament=tournament, by=organiser, action="swap_colours", board=1)
    assert draft.boards[0] == before[0][::-1]

    # Pair round 1's first board again: a repeat pairing (C1), with board and names.
    draft = arbiter.edit_draft(
        tournament=tournament, by=organiser, action="pair", white=w1, black=b1
    )
    assert sorted(s for board in draft.boards for s in board if s) == [1, 2, 3, 4, 5]
    found = arbiter.warnings(tournament, draft)
    repeat = [w for w in found if w.rule == "C1"]
    assert len(repeat) == 1 and set(repeat[0].seeds) == {w1, b1}
    assert repeat[0].board == next(
        n for n, board in enumerate(draft.boards, 1) if set(board) == {w1, b1}
    )
    assert f"p{w1}" in repeat[0].message

    # Round 1's bye player takes the bye again: C2.
    draft = arbiter.edit_draft(tournament=tournament, by=organiser, action="bye", player=bye1)
    assert draft.boards[-1] == [bye1, None]
    assert any(w.rule == "C2" and w.seeds == (bye1,) for w in arbiter.warnings(tournament, draft))

    # Swap two players; an unknown player is a clear 400 error.
    a, b = draft.boards[0][0], draft.boards[-1][0]
    draft = arbiter.edit_draft(
        tournament=tournament, by=organiser, action="swap", first=a, second=b
    )
    assert draft.boards[-1] == [a, None]
    with pytest.raises(errors.InvalidDraftEdit):
        arbiter.edit_draft(tournament=tournament, by=organiser, action="swap", first=a, second=99)
    with pytest.raises(errors.InvalidDraftEdit):
        arbiter.edit_draft(tournament=tournament, by=organiser, action="shuffle")
    with pytest.raises(errors.NotOrganiser):
        arbiter.edit_draft(tournament=tournament, by=players[0], action="swap_colours", board=1)

    # Publishing with warnings is the arbiter's call: the edited boards are played.
    final = [list(board) for board in draft.boards]
    with jobs_run_here():
        arbiter.publish(tournament=tournament, by=organiser)
    assert [list(p) for p in pairs(tournament, 2)] == [[w, b or 0] for w, b in final]


def test_moving_a_player_to_the_bye_in_an_even_round_leaves_two_byes(organiser, players) -> None:
    tournament = _started(organiser, players[:4])
    draft = arbiter.draft_of(tournament)
    white, black = draft.boards[0]
    draft = arbiter.edit_draft(tournament=tournament, by=organiser, action="bye", player=white)
    assert [black, None] in draft.boards and [white, None] in draft.boards
    assert any(w.rule == "bye" for w in arbiter.warnings(tournament, draft))
    # Pairing the two back together merges the byes.
    draft = arbiter.edit_draft(
        tournament=tournament, by=organiser, action="pair", white=white, black=black
    )
    assert len(draft.boards) == 2 and arbiter.warnings(tournament, draft) == []


def test_forbidden_pairs_are_never_paired_and_the_checker_reports_them(organiser) -> None:
    # Four players: round 1 pairs 1-3 and 2-4 (top half against bottom half).
    players = [make_user(f"f{i}", rating=2000 - 10 * i) for i in range(1, 5)]
    tournament = make_tournament(organiser, players, arbiter_publishes=True)
    entries = {p.user.username: p for p in tournament.participants.all()}
    arbiter.add_forbidden_pair(
        tournament=tournament, by=organiser, first=entries["f1"], second=entries["f3"]
    )
    again = arbiter.add_forbidden_pair(
        tournament=tournament, by=organiser, first=entries["f3"], second=entries["f1"]
    )
    assert len(arbiter.forbidden_pairs(tournament)) == 1
    services.start_tournament(tournament=tournament, by=organiser)
    draft = arbiter.draft_of(tournament)
    assert {1, 3} not in [set(b) for b in draft.boards]
    assert arbiter.warnings(tournament, draft) == []
    draft = arbiter.edit_draft(tournament=tournament, by=organiser, action="pair", white=1, black=3)
    assert [w.rule for w in arbiter.warnings(tournament, draft)] == ["forbidden"]
    # The TRF export carries them (XXP), for the command-line checker too.
    assert "XXP 1 3" in selectors.trf(tournament)
    arbiter.remove_forbidden_pair(tournament=tournament, by=organiser, pair_id=again.pk)
    assert arbiter.warnings(tournament, draft) == []
    with pytest.raises(errors.NotOrganiser):
        arbiter.add_forbidden_pair(
            tournament=tournament, by=players[0], first=entries["f1"], second=entries["f2"]
        )


def test_players_of_the_same_club_do_not_meet(organiser) -> None:
    players = [make_user(f"c{i}", rating=2000 - 10 * i) for i in range(1, 5)]
    tournament = make_tournament(organiser, [], avoid_same_club=True)
    for user, club in zip(players, ["Rooks", "", " rooks ", "Pawns"], strict=True):
        services.join(tournament=tournament, user=user, club=club)
    services.start_tournament(tournament=tournament, by=organiser)
    assert (1, 3) not in pairs(tournament, 1) and (3, 1) not in pairs(tournament, 1)
    assert len(pairs(tournament, 1)) == 2


def test_round_robins_ignore_forbidden_pairs_and_have_no_drafts(organiser, players) -> None:
    with pytest.raises(errors.InvalidTournament):
        make_tournament(organiser, players, format="roundrobin", arbiter_publishes=True)
    tournament = make_tournament(organiser, players, format="roundrobin")
    entries = list(tournament.participants.all())
    with pytest.raises(errors.WrongTournamentState):
        arbiter.add_forbidden_pair(
            tournament=tournament, by=organiser, first=entries[0], second=entries[1]
        )


def test_turning_drafts_on_during_a_swiss(organiser, players) -> None:
    tournament = make_tournament(organiser, players)
    services.start_tournament(tournament=tournament, by=organiser)
    assert Round.objects.filter(tournament=tournament).count() == 1  # automatic
    arbiter.set_arbiter_options(tournament=tournament, by=organiser, arbiter_publishes=True)
    with jobs_run_here():
        for game in open_games(tournament):
            finish(game, "0-1")
    assert arbiter.draft_of(tournament).number == 2
    assert not Pairing.objects.filter(round__tournament=tournament, round__number=2).exists()


# --- API ---------------------------------------------------------------------------------------


@pytest.fixture
def api_organiser(make_player):
    from django.contrib.auth.models import Permission

    player = make_player("olga")
    player.user.user_permissions.add(Permission.objects.get(codename="organise_tournament"))
    return player


def test_draft_edit_publish_and_forbidden_pairs_through_the_api(
    api_organiser, alice, bob, stranger
) -> None:
    made = api_organiser.client.post(
        "/api/v1/tournaments",
        {"name": "Arbiter Swiss", "format": "swiss", "rounds": 3, "arbiter_publishes": True},
        format="json",
    )
    assert made.status_code == 201 and made.json()["arbiter_publishes"] is True
    url = f"/api/v1/tournaments/{made.json()['id']}"
    for player, club in ((alice, "Rooks"), (bob, "Rooks"), (stranger, "")):
        assert player.client.post(f"{url}/join", {"club": club}, format="json").status_code == 201
    too_long = {"club": "x" * 81}
    assert api_organiser.client.post(f"{url}/join", too_long, format="json").status_code == 400

    added = api_organiser.client.post(
        f"{url}/forbidden-pairs", {"first": "alice", "second": "mallory"}, format="json"
    )
    assert added.status_code == 201
    assert [(p["first"], p["second"]) for p in added.json()] in (
        [("alice", "mallory")],
        [("mallory", "alice")],
    )
    assert alice.client.get(f"{url}/forbidden-pairs").json()["code"] == "not_organiser"
    missing = {"first": "alice", "second": "nobody"}
    assert (
        api_organiser.client.post(f"{url}/forbidden-pairs", missing, format="json").status_code
        == 404
    )
    options = api_organiser.client.patch(f"{url}/arbiter", {"avoid_same_club": True}, format="json")
    assert options.status_code == 200 and options.json()["avoid_same_club"] is True

    assert api_organiser.client.get(f"{url}/draft").json()["code"] == "no_draft"
    from .helpers import start

    assert start(api_organiser, url).status_code == 202
    draft = api_organiser.client.get(f"{url}/draft").json()
    # alice-bob (same club) and alice-mallory (listed) are forbidden: bob plays mallory.
    (board,) = [b for b in draft["boards"] if b["black"]]
    assert {board["white"]["username"], board["black"]["username"]} == {"bob", "mallory"}
    assert draft["warnings"] == []
    assert alice.client.get(f"{url}/draft").status_code == 403

    alice_seed = next(
        b["white"]["seed"] for b in draft["boards"] if b["white"]["username"] == "alice"
    )
    edited = api_organiser.client.post(
        f"{url}/draft",
        {"action": "pair", "white": alice_seed, "black": board["white"]["seed"]},
        format="json",
    )
    assert edited.status_code == 200
    assert {w["rule"] for w in edited.json()["warnings"]} == {"forbidden"}
    bad = api_organiser.client.post(f"{url}/draft", {"action": "bye", "player": 42}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_edit"
    assert (
        api_organiser.client.post(f"{url}/draft", {"action": "x"}, format="json").status_code == 400
    )

    with jobs_run_here():
        published = api_organiser.client.post(f"{url}/draft/publish")
    assert published.status_code == 202
    assert api_organiser.client.get(url).json()["current_round"] == 1
    rounds = api_organiser.client.get(f"{url}/rounds/1").json()
    assert [b["white"]["seed"] for b in rounds["boards"]] == [
        b["white"]["seed"] for b in edited.json()["boards"]
    ]
    assert api_organiser.client.post(f"{url}/draft/publish").json()["code"] == "no_draft"


def test_trf_import_through_the_api(api_organiser, alice) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from .test_trf_import import _played_trf

    _state, text = _played_trf()
    upload = SimpleUploadedFile("club.trf", text.encode(), content_type="text/plain")
    with jobs_run_here():
        answer = api_organiser.client.post(
            "/api/v1/tournament-imports",
            {"file": upload, "match_users": "true"},
            format="multipart",
        )
    assert answer.status_code == 202, answer.json()
    job = api_organiser.client.get(f"/api/v1/tournament-imports/{answer.json()['id']}").json()
    assert job["status"] == "done" and job["tournament"]
    assert alice.client.get(f"/api/v1/tournament-imports/{job['id']}").status_code == 404
    refused = alice.client.post(
        "/api/v1/tournament-imports",
        {"file": SimpleUploadedFile("x.trf", b"012 X\n")},
        format="multipart",
    )
    assert refused.json()["code"] == "cannot_organise"
    assert (
        api_organiser.client.post("/api/v1/tournament-imports", {}, format="multipart").status_code
        == 400
    )


# --- Pages -------------------------------------------------------------------------------------


def test_the_draft_page_edits_and_publishes(client, organiser, players) -> None:
    tournament = _started(organiser, players)
    client.force_login(organiser)
    url = f"/tournaments/{tournament.pk}/draft/"
    page = client.get(url)
    assert page.status_code == 200
    assert "Publish the round" in page.content.decode()
    assert "<script" not in page.content.decode().split("<main", 1)[1].split("</main>", 1)[0]
    draft = arbiter.draft_of(tournament)
    white, black = draft.boards[0]
    assert client.post(url, {"action": "swap_colours", "board": "1"}).status_code == 302
    assert arbiter.draft_of(tournament).boards[0] == [black, white]
    client.post(url, {"action": "swap", "first": "1", "second": "99"})
    assert "not paired in this round" in client.get(url).content.decode()
    with jobs_run_here():
        assert client.post(url, {"action": "publish"}).status_code == 302
    assert pairs(tournament, 1)[0] == (black, white)
    client.force_login(players[0])
    assert client.get(url).status_code == 403


def test_the_arbiter_page_lists_forbidden_pairs(client, organiser, players) -> None:
    tournament = make_tournament(organiser, players)
    entries = list(tournament.participants.all())
    client.force_login(organiser)
    url = f"/tournaments/{tournament.pk}/arbiter/"
    client.post(url, {"action": "add", "first": entries[0].pk, "second": entries[1].pk})
    assert len(arbiter.forbidden_pairs(tournament)) == 1
    assert "p1 – p2" in client.get(url).content.decode()
    client.post(url, {"action": "options", "avoid_same_club": "1"})
    assert Tournament.objects.get(pk=tournament.pk).avoid_same_club
    pair = arbiter.forbidden_pairs(tournament)[0]
    client.post(url, {"action": "remove", "pair": pair.pk})
    assert arbiter.forbidden_pairs(tournament) == []


def test_the_import_pages(client, organiser) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from .test_trf_import import _played_trf

    client.force_login(organiser)
    assert client.get("/tournaments/import/").status_code == 200
    _state, text = _played_trf()
    with jobs_run_here():
        answer = client.post(
            "/tournaments/import/", {"file": SimpleUploadedFile("a.trf", text.encode())}
        )
    assert answer.status_code == 302
    status = client.get(answer["Location"]).content.decode()
    assert "Club Open" in status
    with jobs_run_here():
        answer = client.post(
            "/tournaments/import/", {"file": SimpleUploadedFile("b.trf", b"001 oops\n")}
        )
    assert "Line 1" in client.get(answer["Location"]).content.decode()


def test_schema_documents_the_arbiter_endpoints(api) -> None:
    schema = api.get("/api/v1/schema?format=json").json()
    for path in (
        "/api/v1/tournaments/{tournament_id}/draft",
        "/api/v1/tournaments/{tournament_id}/draft/publish",
        "/api/v1/tournaments/{tournament_id}/arbiter",
        "/api/v1/tournaments/{tournament_id}/forbidden-pairs",
        "/api/v1/tournaments/{tournament_id}/forbidden-pairs/{pair_id}",
        "/api/v1/tournament-imports",
        "/api/v1/tournament-imports/{import_id}",
    ):
        assert path in schema["paths"], path
    upload = schema["paths"]["/api/v1/tournament-imports"]["post"]["requestBody"]["content"]
    assert "multipart/form-data" in upload


# --- A real worker ------------------------------------------------------------------------------


def _wait_for(predicate, worker, timeout: float = 60) -> None:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out; worker log:\n{worker.log()[-4000:]}")


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_stores_the_draft_and_publishes_it(celery_worker_process) -> None:
    organiser = make_user("orga", organiser=True)
    players = [make_user(f"w{i}", rating=1800 - 20 * i) for i in range(5)]
    tournament = make_tournament(organiser, players, rounds=2, arbiter_publishes=True)
    services.start_tournament(tournament=tournament, by=organiser, pair_now=False)
    _wait_for(lambda: arbiter.draft_of(tournament) is not None, celery_worker_process)
    arbiter.edit_draft(tournament=tournament, by=organiser, action="swap_colours", board=1)
    boards = [list(board) for board in arbiter.draft_of(tournament).boards]
    arbiter.publish(tournament=tournament, by=organiser)
    _wait_for(
        lambda: Round.objects.filter(tournament=tournament, number=1).exists(),
        celery_worker_process,
    )
    assert [list(p) for p in pairs(tournament, 1)] == [[w, b or 0] for w, b in boards]
    assert len(open_games(tournament)) == 2
    for game in open_games(tournament):
        finish(game, "1-0")  # the receiver queues advance_tournament: round 2 is a draft
    _wait_for(
        lambda: DraftRound.objects.filter(tournament=tournament, number=2).exists(),
        celery_worker_process,
    )
    assert Tournament.objects.get(pk=tournament.pk).current_round == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_publications_and_edits_create_the_round_once() -> None:
    """Publication jobs (twice, e.g. a re-delivered message) racing edits: one round, the
    draft's last state, and never an edit applied after the publication."""

    organiser = make_user("orga", organiser=True)
    players = [make_user(f"r{i}", rating=1900 - i) for i in range(8)]
    tournament = make_tournament(organiser, players, rounds=3, arbiter_publishes=True)
    services.start_tournament(tournament=tournament, by=organiser)
    DraftRound.objects.filter(tournament=tournament).update(publishing=True)

    def edit() -> None:
        try:
            arbiter.edit_draft(tournament=tournament, by=organiser, action="swap_colours", board=1)
        except errors.NoDraftRound:
            pass  # being published, or published: the edit is refused

    results = at_once(
        [lambda: arbiter.publish_now(tournament_id=tournament.pk, number=1)] * 4 + [edit] * 2
    )
    assert sum(r is not None for r in results) == 1
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert len(open_games(tournament)) == 4
    assert not DraftRound.objects.filter(tournament=tournament).exists()
    assert Tournament.objects.get(pk=tournament.pk).current_round == 1


def test_turning_drafts_off_keeps_the_waiting_draft_to_publish(organiser, players) -> None:
    tournament = _started(organiser, players)
    arbiter.set_arbiter_options(tournament=tournament, by=organiser, arbiter_publishes=False)
    assert services.advance(tournament_id=tournament.pk) == "idle"  # the draft still waits
    assert not Round.objects.filter(tournament=tournament).exists()
    with jobs_run_here():
        arbiter.publish(tournament=tournament, by=organiser)
    with jobs_run_here():
        for game in open_games(tournament):
            finish(game, "1-0")
    # From now on the rounds are paired automatically again.
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert arbiter.draft_of(tournament) is None


def test_no_half_point_bye_for_a_drafted_round(organiser, players) -> None:
    tournament = _started(organiser, players)
    arbiter.publish_now(tournament_id=tournament.pk, number=1)
    with jobs_run_here():
        for game in open_games(tournament):
            finish(game, "1-0")
    with pytest.raises(errors.ByeRefused):
        services.request_bye(tournament=tournament, user=players[0], round_number=2)


def test_the_checker_warns_about_a_third_white(organiser) -> None:
    players = [make_user(f"k{i}", rating=2000 - 10 * i) for i in range(1, 7)]
    tournament = make_tournament(organiser, players, rounds=4, arbiter_publishes=True)
    services.start_tournament(tournament=tournament, by=organiser)
    met: set[int] = set()
    for number in (1, 2, 3):
        draft = arbiter.draft_of(tournament)
        assert draft.number == number
        opponent = next(s for s in range(2, 7) if s not in met)
        draft = arbiter.edit_draft(
            tournament=tournament, by=organiser, action="pair", white=1, black=opponent
        )
        found = arbiter.warnings(tournament, draft)
        if number < 3:
            assert found == [], found
            met.add(opponent)
            with jobs_run_here():
                arbiter.publish(tournament=tournament, by=organiser)
            with jobs_run_here():
                for game in open_games(tournament):
                    finish(game, "0-1")  # player 1 loses: never a topscorer
    board = next(n for n, b in enumerate(draft.boards, 1) if b[0] == 1)
    colour = [w for w in found if w.rule == "colour" and w.seeds == (1,)]
    assert colour and colour[0].board == board
    assert colour[0].detail == "player 1 gets colour difference +3"  # the CLI's words
