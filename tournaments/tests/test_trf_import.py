"""Importing a tournament from TRF-16: players, rounds and results kept, then it goes on."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Q

from games.models import Game
from notifications.models import Notification
from tournaments import errors, pairing, selectors, trf_import
from tournaments.models import (
    ByeRequest,
    ForbiddenPair,
    Pairing,
    SeatInvitation,
    Tournament,
    TrfImport,
)
from tournaments.pairing import Outcome

from .helpers import finish, jobs_run_here, make_user, open_games

pytestmark = pytest.mark.django_db


def _played_trf(rounds_played: int = 2, total: int = 4) -> tuple[pairing.Tournament, str]:
    """Seven players paired by the package itself: 1 and 2 forbidden, a forfeit, a half-point
    bye announced for the next round."""
    entrants = pairing.assign_starting_ranks(
        [
            ("Ann", 2100),
            ("Bob", 2000),
            ("Cid", 1900),
            ("Dan", 1800),
            ("Eve", 1700),
            ("Fay", 1600),
            ("Gus", 1500),
        ]
    )
    state = pairing.Tournament(
        players=tuple(entrants), total_rounds=total, forbidden_pairs={frozenset((1, 2))}
    )
    for number in range(rounds_played):
        paired = pairing.pair_next_round(state)
        outcomes = {
            board.white: (Outcome.FORFEIT_WIN if number == 0 and index == 0 else Outcome.DRAW)
            for index, board in enumerate(paired.boards)
            if board.black
        }
        state = pairing.record_round(state, paired, outcomes)
    state = pairing.Tournament(
        state.players,
        state.total_rounds,
        forbidden_pairs=state.forbidden_pairs,
        requested_byes={5: Outcome.HALF_POINT_BYE},
    )
    return state, pairing.write_trf(state, name="Club Open")


def _run(organiser, text: str, **options) -> TrfImport:
    with jobs_run_here():
        job = trf_import.queue_import(organiser=organiser, data=text.encode(), **options)
    job.refresh_from_db()
    return job


def test_import_keeps_players_rounds_and_results_and_pairs_the_next_round() -> None:
    organiser = make_user("orga", organiser=True)
    state, text = _played_trf()
    job = _run(organiser, text)
    assert job.status == "done", job.error
    tournament = job.tournament
    assert tournament.name == "Club Open" and tournament.format == "swiss"
    assert tournament.rounds == 4 and tournament.status == Tournament.Status.RUNNING
    entries = {p.seed: p for p in tournament.participants.select_related("user")}
    assert entries[2].user.username == "Bob@imported" and not entries[2].user.is_active
    # The boards read back as the file's rounds (what standings and the pairer see).
    imported = selectors.snapshot(tournament, rounds=2)
    assert imported.points() == state.points()
    assert [p.results for p in imported.players] == [p.results for p in state.players]
    assert ForbiddenPair.objects.filter(tournament=tournament).count() == 1
    assert ByeRequest.objects.get(participant__tournament=tournament).round_number == 3
    # Round 3 was paired by the platform, without Eve (her bye) and without 1 against 2.
    assert tournament.current_round == 3
    round3 = Pairing.objects.filter(round__tournament=tournament, round__number=3)
    assert {(b.white.seed, b.black.seed if b.black else 0) for b in round3 if b.black} != set()
    assert all({b.white.seed, b.black.seed} != {1, 2} for b in round3 if b.black)
    assert round3.get(white__seed=5).white_outcome == "H"
    with jobs_run_here():
        for game in open_games(tournament):
            finish(game, "1-0")
    assert Tournament.objects.get(pk=tournament.pk).current_round == 4


def _games_of(user) -> list[Game]:
    return list(Game.objects.filter(Q(white=user) | Q(black=user)))


def _places(tournament: Tournament) -> dict[int, str]:
    return dict(tournament.participants.values_list("seed", "user__username"))


def test_matched_accounts_are_invited_never_entered_or_paired_without_consent(
    make_player,
) -> None:
    organiser = make_user("orga", organiser=True)
    ann = make_player("Ann")  # matched by username
    cid = make_player("cid_the_player")  # matched by display name
    cid.user.profile.display_name = "Cid"
    cid.user.profile.save()
    _state, text = _played_trf()
    job = _run(organiser, text, match_users=True)
    assert job.status == "done", job.error
    tournament = job.tournament
    # Every place is an imported name, and round 3 was paired: no game for Ann or Cid.
    assert all(name.endswith("@imported") for name in _places(tournament).values())
    assert not tournament.participants.filter(user__in=[ann.user, cid.user]).exists()
    assert tournament.current_round == 3
    assert _games_of(ann.user) == [] and _games_of(cid.user) == []
    # They are asked instead: a notification each, linking to their invitations.
    (told,) = Notification.objects.filter(user=ann.user, kind="tournament_invitation")
    assert "Club Open" in told.message and "Ann" in told.message
    assert told.url == "/tournaments/invitations/"
    listed = ann.client.get("/api/v1/tournament-invitations").json()
    assert [(i["tournament"], i["seed"], i["status"]) for i in listed] == [
        (tournament.pk, 1, "pending")
    ]
    assert [i["seed"] for i in cid.client.get("/api/v1/tournament-invitations").json()] == [3]


def test_an_accepted_invitation_takes_the_place_from_the_next_round(make_player) -> None:
    organiser = make_user("orga", organiser=True)
    ann = make_player("Ann")
    _state, text = _played_trf()
    tournament = _run(organiser, text, match_users=True).tournament
    (invitation,) = SeatInvitation.objects.filter(user=ann.user)
    # Another account cannot answer it.
    stranger = make_player("stranger")
    refused = stranger.client.post(f"/api/v1/tournament-invitations/{invitation.pk}/accept")
    assert (refused.status_code, refused.json()["code"]) == (404, "not_found")

    answer = ann.client.post(f"/api/v1/tournament-invitations/{invitation.pk}/accept")
    assert answer.status_code == 200, answer.content
    # The game of round 3 under the imported name goes on under it.
    assert answer.json()["status"] == "accepted" and answer.json()["place_taken"] is False
    assert _places(tournament)[1] == "Ann@imported"
    with jobs_run_here():
        for game in open_games(tournament):
            finish(game, "1-0")  # round 4 is paired
    assert Tournament.objects.get(pk=tournament.pk).current_round == 4
    assert _places(tournament)[1] == "Ann"
    (board,) = Pairing.objects.filter(
        Q(white__seed=1) | Q(black__seed=1), round__tournament=tournament, round__number=4
    )
    assert ann.user.pk in (board.game.white_id, board.game.black_id)
    # Her results so far are the place's (what the standings read).
    row = next(r for r in selectors.standings(tournament).rows if r.participant.seed == 1)
    assert row.participant.user == ann.user and row.points > 0
    again = ann.client.post(f"/api/v1/tournament-invitations/{invitation.pk}/accept")
    assert again.json()["place_taken"] is True
    declined = ann.client.post(f"/api/v1/tournament-invitations/{invitation.pk}/decline")
    assert (declined.status_code, declined.json()["code"]) == (409, "wrong_state")


def test_an_invitation_accepted_between_rounds_takes_the_place_at_once(client) -> None:
    organiser = make_user("orga", organiser=True)
    ann = make_user("Ann")
    _state, text = _played_trf()
    tournament = _run(organiser, text, match_users=True, arbiter_publishes=True).tournament
    assert tournament.draft_round.number == 3  # no round on: nothing waits
    client.force_login(ann)
    page = client.get("/tournaments/invitations/")
    assert "Club Open" in page.content.decode()
    (invitation,) = SeatInvitation.objects.filter(user=ann)
    client.post("/tournaments/invitations/", {"invitation": invitation.pk, "answer": "accept"})
    assert _places(tournament)[1] == "Ann"


def test_a_declined_invitation_leaves_the_imported_player_in_place(make_player) -> None:
    organiser = make_user("orga", organiser=True)
    ann = make_player("Ann")
    _state, text = _played_trf()
    tournament = _run(organiser, text, match_users=True).tournament
    (invitation,) = SeatInvitation.objects.filter(user=ann.user)
    answer = ann.client.post(f"/api/v1/tournament-invitations/{invitation.pk}/decline")
    assert answer.json()["status"] == "declined"
    with jobs_run_here():
        for game in open_games(tournament):
            finish(game, "1-0")
    assert Tournament.objects.get(pk=tournament.pk).current_round == 4
    assert _places(tournament)[1] == "Ann@imported"
    assert _games_of(ann.user) == []


def test_without_matching_every_player_is_an_imported_name() -> None:
    organiser = make_user("orga", organiser=True)
    make_user("Ann")
    _state, text = _played_trf()
    job = _run(organiser, text, name="Renamed", arbiter_publishes=True)
    assert not SeatInvitation.objects.exists()
    assert job.status == "done"
    assert job.tournament.name == "Renamed"
    assert all(p.user.username.endswith("@imported") for p in job.tournament.participants.all())
    # With the arbiter option the next round waits as a draft.
    assert job.tournament.draft_round.number == 3
    # The job ran once: a re-delivered message changes nothing.
    assert trf_import.run_import(import_id=job.pk).tournament == job.tournament
    assert Tournament.objects.count() == 1


def test_a_finished_tournament_is_imported_finished() -> None:
    organiser = make_user("orga", organiser=True)
    _state, text = _played_trf(rounds_played=2, total=2)
    job = _run(organiser, text.replace("0000 - H", "").rstrip() + "\n")
    assert job.status == "done", job.error
    assert job.tournament.status == Tournament.Status.FINISHED


def test_a_file_with_more_players_than_the_machine_pairs_is_refused(settings) -> None:
    organiser = make_user("orga", organiser=True)
    settings.TOURNAMENT_MAX_PLAYERS = 6
    _state, text = _played_trf()  # seven players
    job = _run(organiser, text)
    assert job.status == "failed"
    assert job.error == "The file has more players than a tournament here may have."
    assert not Tournament.objects.exists()


def test_errors_name_the_line() -> None:
    organiser = make_user("orga", organiser=True)
    _state, text = _played_trf()
    lines = text.splitlines()
    lines[2] = lines[2][:80] + "99.0" + lines[2][84:]  # points that do not match
    job = _run(organiser, "\n".join(lines))
    assert job.status == "failed" and job.error_line == 3
    assert "do not match" in job.error
    assert not Tournament.objects.exists()  # nothing half-imported
    assert _run(organiser, "999 what\n").error_line == 1


def test_bad_uploads_are_refused_before_the_job() -> None:
    organiser = make_user("orga", organiser=True)
    with pytest.raises(errors.InvalidImport):
        trf_import.queue_import(organiser=organiser, data=b"  ")
    with pytest.raises(errors.InvalidImport):
        trf_import.queue_import(organiser=organiser, data=b"\x00" * 10)
    with pytest.raises(errors.CannotOrganise):
        trf_import.queue_import(organiser=make_user("someone"), data=b"012 X\n")


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_imports_and_pairs_the_next_round(celery_worker_process) -> None:
    import time

    organiser = make_user("orga", organiser=True)
    _state, text = _played_trf()
    job = trf_import.queue_import(organiser=organiser, data=text.encode())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job.refresh_from_db()
        tournament = job.tournament
        if tournament is not None and tournament.round_set.filter(number=3).exists():
            break
        time.sleep(0.2)
    else:
        raise AssertionError(celery_worker_process.log()[-4000:])
    assert job.status == "done"
    assert len(open_games(tournament)) == 3  # 7 players, Eve's half-point bye: 3 games


def test_the_admin_shows_invitations_and_cannot_answer_them(client) -> None:
    organiser = make_user("orga", organiser=True)
    ann = make_user("Ann")
    _state, text = _played_trf()
    _run(organiser, text, match_users=True)
    (invitation,) = SeatInvitation.objects.filter(user=ann)
    client.force_login(get_user_model().objects.create_superuser("su"))
    assert "Ann@imported" in client.get("/admin/tournaments/seatinvitation/").content.decode()
    page = client.get(f"/admin/tournaments/seatinvitation/{invitation.pk}/change/")
    assert page.status_code == 200 and 'name="status"' not in page.content.decode()
