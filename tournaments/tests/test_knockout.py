"""Knockout cups: the bracket (pure), the services and jobs (SQLite), a real worker."""

from __future__ import annotations

import pytest

from core.testing import at_once
from tournaments import knockout, selectors, services
from tournaments.models import Round, Tournament
from tournaments.pairing.knockout import (
    MAX_MATCH_GAMES,
    KnockoutGame,
    build_bracket,
    placements,
    seeding_order,
)

from .helpers import finish, jobs_run_here, make_tournament, make_user, open_games, pairs

# --- The bracket (pure) ------------------------------------------------------------------


def test_standard_seeding_keeps_the_top_seeds_apart() -> None:
    assert seeding_order(2) == [1, 2]
    assert seeding_order(4) == [1, 4, 2, 3]
    assert seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_top_seeds_get_the_byes_when_the_field_is_not_a_power_of_two() -> None:
    bracket = build_bracket(6, [], "replay")
    first = bracket.rounds[0]
    assert [(m.high, m.low, m.decided_by) for m in first] == [
        (1, None, "bye"), (4, 5, ""), (2, None, "bye"), (3, 6, ""),
    ]  # fmt: skip
    assert bracket.next_boards() == [(4, 5), (3, 6)]
    assert len(bracket.rounds) == 3


def test_a_decisive_game_decides_and_the_next_round_waits_for_the_whole_round() -> None:
    games = [KnockoutGame(1, 1, 4, "1", "0")]
    bracket = build_bracket(4, games, "seed")
    assert bracket.rounds[0][0].winner == 1
    assert bracket.next_boards() == [(2, 3)]  # the other first-round match
    games.append(KnockoutGame(1, 2, 3, "0", "1"))
    bracket = build_bracket(4, games, "seed")
    assert bracket.next_boards() == [(1, 3)]  # the final: the higher seed has White
    games.append(KnockoutGame(2, 1, 3, "0", "1"))
    bracket = build_bracket(4, games, "seed")
    assert bracket.champion == 3
    assert bracket.next_boards() == []
    assert placements(bracket) == {3: 1, 1: 2, 2: 3, 4: 3}


def test_tie_rules() -> None:
    draw = [KnockoutGame(1, 1, 2, "=", "=")]
    assert build_bracket(2, draw, "seed").champion == 1
    assert build_bracket(2, draw, "black").champion == 2
    replay = build_bracket(2, draw, "replay")
    assert replay.champion is None
    assert replay.next_boards() == [(2, 1)]  # colours swapped
    games = [KnockoutGame(n, *((1, 2) if n % 2 else (2, 1)), "=", "=") for n in range(1, 5)]
    assert len(games) == MAX_MATCH_GAMES
    capped = build_bracket(2, games, "replay")
    assert (capped.champion, capped.rounds[0][0].decided_by) == (1, "seed")
    # A double forfeit (an aborted game) is a tie too.
    assert build_bracket(2, [KnockoutGame(1, 1, 2, "-", "-")], "black").champion == 2


def test_nothing_is_paired_while_a_game_is_on() -> None:
    games = [KnockoutGame(1, 1, 4, "=", "="), KnockoutGame(1, 2, 3)]
    assert build_bracket(4, games, "replay").next_boards() == []


# --- Services (SQLite; jobs run here) ----------------------------------------------------


def _cup(size: int, **options):
    organiser = make_user("orga", organiser=True)
    players = [make_user(f"k{i}", rating=2000 - 10 * i) for i in range(size)]
    cup = make_tournament(organiser, players, format="knockout", name="Cup", **options)
    return organiser, players, cup


@pytest.mark.django_db
def test_a_cup_with_byes_and_a_replay_runs_to_its_champion() -> None:
    organiser, _players, cup = _cup(5, tie_rule="replay")
    with jobs_run_here():
        services.start_tournament(tournament=cup, by=organiser)
    # 5 players in 8 places: seeds 1, 2, 3 have byes; 4 v 5 plays.
    assert pairs(cup, 1) == [(4, 5), (1, 0), (2, 0), (3, 0)]
    (game,) = open_games(cup)
    with jobs_run_here():
        finish(game, "1/2-1/2")
    assert pairs(cup, 2) == [(5, 4)]  # the replay, colours swapped
    (game,) = open_games(cup)
    with jobs_run_here():
        finish(game, "1-0")  # seed 5 wins
    assert pairs(cup, 3) == [(1, 5), (2, 3)]  # semi-finals, higher seed White
    for game, result in zip(open_games(cup), ["0-1", "1-0"], strict=True):
        with jobs_run_here():
            finish(game, result)
    assert pairs(cup, 4) == [(2, 5)]  # the final
    (game,) = open_games(cup)
    with jobs_run_here():
        finish(game, "1-0")
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert knockout.bracket(cup).champion == 2
    table = selectors.standings(cup)
    assert [(row.rank, row.participant.seed) for row in table.rows] == [
        (1, 2), (2, 5), (3, 1), (3, 3), (5, 4),
    ]  # fmt: skip
    # The downloads: TRF (one game per player per round) and every game as .agn.
    trf = selectors.trf(cup)
    assert trf.count("\n001 ") == 5
    from archive.services import tournament_agn  # the .agn download (archive app)

    assert tournament_agn(cup).count("[Event ") == 5
    # Its pages: the usual ones and the bracket, with the winner.
    from django.test import Client

    for url in ("", "crosstable/", "rounds/1/", "rounds/4/", "bracket/"):
        page = Client().get(f"/tournaments/{cup.pk}/{url}")
        assert page.status_code == 200, url
    bracket_page = Client().get(f"/tournaments/{cup.pk}/bracket/").content.decode()
    assert "<strong>k1</strong>" in bracket_page  # seed 2 = k1 (ratings 2000, 1990 …)


@pytest.mark.django_db
def test_black_advances_from_a_drawn_match() -> None:
    organiser, _players, cup = _cup(2, tie_rule="black")
    with jobs_run_here():
        services.start_tournament(tournament=cup, by=organiser)
    (game,) = open_games(cup)
    with jobs_run_here():
        finish(game, "1/2-1/2")
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert knockout.bracket(cup).champion == 2
    assert Round.objects.filter(tournament=cup).count() == 1


@pytest.mark.django_db
def test_a_withdrawn_player_forfeits_the_next_match() -> None:
    organiser, players, cup = _cup(4, tie_rule="seed")
    with jobs_run_here():
        services.start_tournament(tournament=cup, by=organiser)
    first, second = open_games(cup)
    with jobs_run_here():
        finish(first, "1-0")  # seed 1 beats 4
        services.withdraw(tournament=cup, user=players[0])  # …and withdraws
        finish(second, "1-0")  # seed 2 beats 3
    # The final is a forfeit (+/-), the cup ends without a game.
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert knockout.bracket(cup).champion == 2


@pytest.mark.django_db
def test_bad_settings_are_field_errors() -> None:
    organiser = make_user("orga", organiser=True)
    with pytest.raises(services.errors.InvalidTournament) as caught:
        services.create_tournament(
            organiser=organiser, name="Cup", format="knockout", tie_rule="coin"
        )
    assert "tie_rule" in caught.value.details["fields"]


@pytest.mark.django_db
def test_api_creates_a_cup_and_serves_its_bracket() -> None:
    from rest_framework.test import APIClient

    organiser = make_user("orga", organiser=True)
    client = APIClient()
    client.force_authenticate(organiser)
    answer = client.post(
        "/api/v1/tournaments",
        {"name": "API Cup", "format": "knockout", "tie_rule": "seed"},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["tie_rule"] == "seed"
    cup = Tournament.objects.get(pk=answer.json()["id"])
    for i in range(3):
        services.join(tournament=cup, user=make_user(f"p{i}", rating=1600 - i))
    with jobs_run_here():
        assert client.post(f"/api/v1/tournaments/{cup.pk}/start").status_code == 202
    bracket = client.get(f"/api/v1/tournaments/{cup.pk}/bracket").json()
    assert [len(r["matches"]) for r in bracket["rounds"]] == [2, 1]
    first = bracket["rounds"][0]["matches"][0]
    assert (first["high"]["seed"], first["low"], first["decided_by"]) == (1, None, "bye")
    page = client.get(f"/tournaments/{cup.pk}/bracket/")
    assert page.status_code == 200
    assert "p0" in page.content.decode()


# --- A real worker -----------------------------------------------------------------------


def _wait(predicate, worker, timeout: float = 60) -> None:
    from core.testing import wait_for

    wait_for(predicate, worker, timeout)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_runs_a_cup_with_a_replay(celery_worker_process) -> None:
    organiser, _players, cup = _cup(4, tie_rule="replay")
    services.start_tournament(tournament=cup, by=organiser, pair_now=False)  # a job pairs
    results = {1: ["1/2-1/2", "1-0"], 2: ["0-1"], 3: ["1-0"]}
    for number in (1, 2, 3):
        _wait(
            lambda n=number: Round.objects.filter(tournament=cup, number=n).exists(),
            celery_worker_process,
        )
        for game, result in zip(open_games(cup), results[number], strict=True):
            finish(game, result)  # committed; the receiver queues advance_tournament
    _wait(
        lambda: Tournament.objects.get(pk=cup.pk).status == Tournament.Status.FINISHED,
        celery_worker_process,
    )
    # Round 1: 1-4 drawn, 2 beat 3; round 2: the replay 4-1, 1 wins; round 3: 1 beats 2.
    assert pairs(cup, 1) == [(1, 4), (2, 3)]
    assert pairs(cup, 2) == [(4, 1)]
    assert pairs(cup, 3) == [(1, 2)]
    assert knockout.bracket(cup).champion == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_advances_pair_the_next_bracket_round_once() -> None:

    from tournaments.models import Pairing

    organiser, _players, cup = _cup(8, tie_rule="replay")
    services.start_tournament(tournament=cup, by=organiser)
    # Round 1 scored directly (no game-finished signal, so no job): the higher seed wins
    # boards 1-3, board 4 is drawn (a replay is due beside nothing else).
    rows = Pairing.objects.filter(round__tournament=cup, round__number=1).order_by("board")
    for row in rows[:3]:
        Pairing.objects.filter(pk=row.pk).update(white_outcome="1", black_outcome="0")
    Pairing.objects.filter(pk=rows[3].pk).update(white_outcome="=", black_outcome="=")
    outcomes = at_once([lambda: services.advance(tournament_id=cup.pk)] * 4)
    assert outcomes.count("paired") == 1
    assert Round.objects.filter(tournament=cup).count() == 2
    assert pairs(cup, 2) == [(6, 3)]  # only the replay of 3 v 6, colours swapped
