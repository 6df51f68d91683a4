"""Championship leagues: divisions and promotion (pure), services and jobs (SQLite),
a season rolled over by a real worker."""

from __future__ import annotations

import pytest

from core.testing import at_once
from tournaments import errors, leagues
from tournaments.models import Division, League, Season, Tournament
from tournaments.pairing.promotion import next_divisions, split

from .helpers import finish, jobs_run_here, make_user, open_games

# --- Divisions and promotion (pure) ------------------------------------------------------


def test_the_first_season_cuts_the_members_into_divisions() -> None:
    assert split(list("abcdefg"), 3) == [["a", "b", "c"], ["d", "e", "f", "g"]]
    assert split(list("abcdef"), 3) == [["a", "b", "c"], ["d", "e", "f"]]
    assert split(list("ab"), 4) == [["a", "b"]]


def test_top_k_go_up_bottom_k_go_down_and_newcomers_start_at_the_bottom() -> None:
    standings = [["a1", "a2", "a3", "a4"], ["b1", "b2", "b3", "b4"], ["c1", "c2", "c3"]]
    following = next_divisions(standings, promote=1, size=4, entrants=["n1", "n2"])
    # n2 alone would be a division of one: it joins the one above.
    assert [sorted(d) for d in following] == [
        ["a1", "a2", "a3", "b1"],
        ["a4", "b2", "b3", "c1"],
        ["b4", "c2", "c3", "n1", "n2"],
    ]
    # Six newcomers: the last division is filled to 4, the rest open a new one.
    more = next_divisions(standings, promote=1, size=4, entrants=[f"n{i}" for i in range(4)])
    assert [len(d) for d in more] == [4, 4, 4, 3]


def test_players_who_left_are_dropped_and_k_is_capped_by_half_a_division() -> None:
    standings = [["a1", "a2"], ["b1", "b2", "b3", "b4"]]
    following = next_divisions(standings, promote=2, size=4, leaving={"b2"})
    # A division of 2 moves one (half of it); the second one moves 2.
    assert [sorted(d) for d in following] == [["a1", "b1"], ["a2", "b3", "b4"]]


# --- Services (SQLite; jobs run here) ----------------------------------------------------


def _league(members: int, **options):
    organiser = make_user("orga", organiser=True)
    options.setdefault("division_size", 3)
    league = leagues.create_league(organiser=organiser, name="Championship", **options)
    players = [make_user(f"m{i}", rating=2000 - 10 * i) for i in range(members)]
    for user in players:
        leagues.join_league(league=league, user=user)
    return organiser, players, league


def _names(season: Season) -> list[list[str]]:
    return [
        sorted(p.user.username for p in division.tournament.participants.select_related("user"))
        for division in season.divisions.order_by("level")
    ]


def _play_season(season: Season, winner_by_seed: bool = True) -> None:
    """Every game of the season: the better seed wins (White if equal)."""
    for division in season.divisions.select_related("tournament"):
        for game in open_games(division.tournament):
            pairing = game.tournament_pairing
            white_better = pairing.white.seed < pairing.black.seed
            with jobs_run_here():
                finish(game, "1-0" if white_better == winner_by_seed else "0-1")


@pytest.mark.django_db
def test_a_season_rolls_over_with_promotion_relegation_and_a_newcomer() -> None:
    organiser, players, league = _league(6, promote=1)
    with jobs_run_here():
        season = leagues.start_league(league=league, by=organiser)
    assert _names(season) == [["m0", "m1", "m2"], ["m3", "m4", "m5"]]
    division_one = season.divisions.get(level=1).tournament
    assert division_one.format == Tournament.Format.ROUND_ROBIN and division_one.all_at_once
    assert len(open_games(division_one)) == 3  # all games at once
    newcomer = make_user("new", rating=2500)
    leagues.join_league(league=league, user=newcomer)
    leagues.leave_league(league=league, user=players[4])
    _play_season(season, winner_by_seed=False)  # upsets: the lowest seed wins everything
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED
    second = Season.objects.get(league=league, number=2)
    # Division 1: m2 first … m0 last; division 2: m5 first. m0 and m5 swap; m4 left;
    # the newcomer starts at the bottom, whatever the rating.
    assert _names(second) == [["m1", "m2", "m5"], ["m0", "m3", "new"]]
    assert second.status == Season.Status.RUNNING
    assert all(d.tournament.status == Tournament.Status.RUNNING for d in second.divisions.all())
    history = leagues.history(league, players[0])
    assert [(row.season, row.level, row.move) for row in history] == [(1, 1, "down"), (2, 2, "")]
    # Lost both games; three players: every one has a bye (one point).
    assert (history[0].rank, history[0].points, history[0].players) == (3, 2, 3)
    assert [(row.season, row.move) for row in leagues.history(league, players[4])] == [(1, "left")]


@pytest.mark.django_db
def test_the_rollover_happens_once() -> None:
    organiser, _players, league = _league(4, division_size=2)
    with jobs_run_here():
        season = leagues.start_league(league=league, by=organiser)
    _play_season(season)
    assert leagues.finish_season(season_id=season.pk) == "idle"  # done by the job already
    assert Season.objects.filter(league=league).count() == 2


@pytest.mark.django_db
def test_refusals() -> None:
    organiser, players, league = _league(1)
    with pytest.raises(errors.NotEnoughPlayers):
        leagues.start_league(league=league, by=organiser)
    with pytest.raises(errors.AlreadyJoined):
        leagues.join_league(league=league, user=players[0])
    with pytest.raises(errors.NotOrganiser):
        leagues.start_league(league=league, by=players[0])
    with pytest.raises(errors.CannotOrganise):
        leagues.create_league(organiser=players[0], name="Mine")
    with pytest.raises(errors.InvalidTournament) as caught:
        leagues.create_league(organiser=organiser, name="", division_size=4, promote=3)
    assert set(caught.value.details["fields"]) == {"name", "promote"}
    bot = make_user("bot", bot=True)
    with pytest.raises(errors.BotsNotAllowed):
        leagues.join_league(league=league, user=bot)


@pytest.mark.django_db
def test_league_api_and_pages() -> None:
    from rest_framework.test import APIClient

    organiser = make_user("orga", organiser=True)
    client = APIClient()
    client.force_authenticate(organiser)
    answer = client.post(
        "/api/v1/leagues", {"name": "API League", "division_size": 4, "promote": 1}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    league_id = answer.json()["id"]
    assert client.post(f"/api/v1/leagues/{league_id}/join").status_code == 201
    bad = client.post("/api/v1/leagues", {"name": "x", "division_size": 1}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid")
    player = make_user("p1")
    other = APIClient()
    other.force_authenticate(player)
    assert other.post(f"/api/v1/leagues/{league_id}/join").status_code == 201
    assert other.post(f"/api/v1/leagues/{league_id}/start").json()["code"] == "not_organiser"
    with jobs_run_here():
        assert client.post(f"/api/v1/leagues/{league_id}/start").status_code == 202
    again = client.post(f"/api/v1/leagues/{league_id}/start")
    assert (again.status_code, again.json()["code"]) == (409, "wrong_state")
    season = client.get(f"/api/v1/leagues/{league_id}/seasons/1").json()
    assert [d["level"] for d in season["divisions"]] == [1]
    assert len(season["divisions"][0]["standings"]["standings"]) == 2
    history = client.get(f"/api/v1/leagues/{league_id}/players/p1").json()
    assert [(row["season"], row["division"]) for row in history] == [(1, 1)]
    for url in (
        "/tournaments/leagues/",
        f"/tournaments/leagues/{league_id}/",
        f"/tournaments/leagues/{league_id}/seasons/1/",
        f"/tournaments/leagues/{league_id}/players/p1/",
    ):
        page = client.get(url)
        assert page.status_code == 200, url
        assert "API League" in page.content.decode()
    assert League.objects.get(pk=league_id).seasons.count() == 1


# --- A real worker -----------------------------------------------------------------------


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_rolls_a_season_over(celery_worker_process) -> None:
    from core.testing import wait_for

    organiser, _players, league = _league(4, division_size=2)
    season = leagues.start_league(league=league, by=organiser)  # the worker pairs
    wait_for(
        lambda: (
            Division.objects.filter(season=season, tournament__round_set__isnull=False)
            .distinct()
            .count()
            == 2
        ),
        celery_worker_process,
    )
    for division in season.divisions.select_related("tournament"):
        (game,) = open_games(division.tournament)
        pairing = game.tournament_pairing
        # The lower seed wins: m1 tops division 1 and m3 division 2; m0 down, m3 up.
        finish(game, "0-1" if pairing.white.seed < pairing.black.seed else "1-0")
    second = wait_for(
        lambda: Season.objects.filter(league=league, number=2).first(), celery_worker_process
    )
    wait_for(
        lambda: all(
            d.tournament.round_set.exists() for d in second.divisions.select_related("tournament")
        ),
        celery_worker_process,
    )
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED
    assert _names(second) == [["m1", "m3"], ["m0", "m2"]]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ru", "eo"])
def test_league_and_bracket_pages_come_out_in_the_language(client, language) -> None:
    from accounts.models import Profile

    organiser, players, league = _league(4, division_size=2)
    with jobs_run_here():
        leagues.start_league(league=league, by=organiser)
    cup = make_user("cupper", organiser=True)
    from tournaments import services

    tournament = services.create_tournament(organiser=cup, name="Cup", format="knockout")
    Profile.objects.filter(user=players[0]).update(language=language)
    client.force_login(players[0])
    words = {"ru": ("Сезоны", "Дивизион 1", "Сетка"), "eo": ("Sezonoj", "Divizio 1", "Tabelo")}
    seasons, division, bracket = words[language]
    assert seasons in client.get(f"/tournaments/leagues/{league.pk}/").content.decode()
    assert division in client.get(f"/tournaments/leagues/{league.pk}/seasons/1/").content.decode()
    assert bracket in client.get(f"/tournaments/{tournament.pk}/bracket/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_concurrent_rollovers_start_one_next_season() -> None:

    organiser, _players, league = _league(4, division_size=2)
    season = leagues.start_league(league=league, by=organiser)
    # The divisions are over (their games do not matter here): every job may roll over.
    Tournament.objects.filter(division__season=season).update(status=Tournament.Status.FINISHED)
    attempts = 4
    outcomes = at_once([lambda: leagues.finish_season(season_id=season.pk)] * attempts)
    assert sorted(outcomes) == ["idle"] * (attempts - 1) + ["rolled over"]
    assert Season.objects.filter(league=league).count() == 2
    assert Division.objects.filter(season__league=league, season__number=2).count() == 2
