"""Tournament life cycle through the services: create, join, start, rounds, standings."""

from __future__ import annotations

import pytest

from clocks.timecontrol import TimeControl
from games.models import Game
from tournaments import errors, pairing, selectors, services
from tournaments.models import Pairing, Round, Tournament

from .helpers import finish, make_tournament, make_user, open_games, pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return make_user("orga", organiser=True)


@pytest.fixture
def players():
    # Ratings decide the starting ranks: p1 is the top seed.
    return [make_user(f"p{i}", rating=2000 - 10 * i) for i in range(1, 7)]


def test_only_organisers_create_tournaments(players) -> None:
    with pytest.raises(errors.CannotOrganise):
        services.create_tournament(organiser=players[0], name="Mine", format="swiss", rounds=3)


def test_bad_settings_are_field_errors(organiser) -> None:
    with pytest.raises(errors.InvalidTournament) as caught:
        services.create_tournament(
            organiser=organiser,
            name=" ",
            format="swiss",
            rounds=0,
            time_control=TimeControl.per_turn(99),
            bye_points=3,
            tiebreaks=["BH", "XX"],
            all_at_once=True,
        )
    assert set(caught.value.details["fields"]) == {
        "name", "rounds", "days_per_turn", "bye_points", "tiebreaks", "all_at_once",
    }  # fmt: skip


def test_default_tiebreaks_follow_the_format(organiser) -> None:
    rr = services.create_tournament(organiser=organiser, name="RR", format="roundrobin")
    swiss = services.create_tournament(organiser=organiser, name="S", format="swiss", rounds=5)
    assert rr.tiebreak_list[0] == "SB"
    assert swiss.tiebreak_list[:2] == ["BH-C1", "BH"]


def test_join_twice_full_and_bots_are_refused(organiser, players) -> None:
    bot = make_user("robot", bot=True)
    tournament = make_tournament(organiser, players[:2], max_players=3)
    with pytest.raises(errors.AlreadyJoined):
        services.join(tournament=tournament, user=players[0])
    with pytest.raises(errors.BotsNotAllowed):
        services.join(tournament=tournament, user=bot)
    services.join(tournament=tournament, user=players[2])
    with pytest.raises(errors.TournamentFull):
        services.join(tournament=tournament, user=players[3])


def test_no_tournament_grows_past_what_the_machine_can_pair(organiser, players, settings) -> None:
    # TOURNAMENT_MAX_PLAYERS: what a round's pairing job finishes well inside its time
    # limit on the machine (measured, docs/tournaments.md), with or without a limit of its own.
    settings.TOURNAMENT_MAX_PLAYERS = 3
    tournament = make_tournament(organiser, players[:3])
    with pytest.raises(errors.TournamentFull):
        services.join(tournament=tournament, user=players[3])
    with pytest.raises(errors.InvalidTournament) as refused:
        make_tournament(organiser, [], max_players=4)
    assert refused.value.details["fields"] == {"max_players": ["From 2 to 3 players."]}


def test_admitted_bots_may_join(organiser) -> None:
    bot = make_user("robot", bot=True)
    tournament = make_tournament(organiser, [], allow_bots=True)
    assert services.join(tournament=tournament, user=bot).user == bot


def test_withdrawing_before_the_start_removes_the_registration(organiser, players) -> None:
    tournament = make_tournament(organiser, players[:3])
    assert services.withdraw(tournament=tournament, user=players[0]) is None
    assert tournament.participants.count() == 2
    with pytest.raises(errors.NotJoined):
        services.withdraw(tournament=tournament, user=players[0])


def test_start_needs_the_organiser_and_two_players(organiser, players) -> None:
    tournament = make_tournament(organiser, players[:1])
    with pytest.raises(errors.NotOrganiser):
        services.start_tournament(tournament=tournament, by=players[0])
    with pytest.raises(errors.NotEnoughPlayers):
        services.start_tournament(tournament=tournament, by=organiser)


def test_starting_ranks_by_rating_then_name(organiser) -> None:
    users = [
        make_user("zed", rating=1600),
        make_user("amy", rating=1500),
        make_user("bea", rating=1500),
    ]
    tournament = make_tournament(organiser, users)
    services.start_tournament(tournament=tournament, by=organiser)
    seeds = dict(tournament.participants.values_list("user__username", "seed"))
    assert seeds == {"zed": 1, "amy": 2, "bea": 3}


def test_swiss_round_one_pairs_top_half_against_bottom_half(organiser, players) -> None:
    tournament = make_tournament(organiser, players, rounds=3)
    services.start_tournament(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    assert (tournament.status, tournament.current_round) == ("running", 1)
    assert pairs(tournament, 1) == [(1, 4), (5, 2), (3, 6)]
    assert all(g.status == Game.Status.ACTIVE for g in open_games(tournament))
    with pytest.raises(errors.WrongTournamentState):
        services.start_tournament(tournament=tournament, by=organiser)


def test_next_swiss_round_is_paired_when_the_last_game_ends(organiser, players) -> None:
    tournament = make_tournament(organiser, players, rounds=2)
    services.start_tournament(tournament=tournament, by=organiser)
    games = open_games(tournament)
    finish(games[0], "1-0")
    finish(games[1], "1/2-1/2")
    # In a test transaction nothing commits: call the task's service directly.
    assert services.advance(tournament_id=tournament.pk) == "waiting"
    finish(games[2], "0-1")
    assert services.advance(tournament_id=tournament.pk) == "paired"
    assert services.advance(tournament_id=tournament.pk) == "waiting"
    assert Round.objects.filter(tournament=tournament).count() == 2
    for game in open_games(tournament):
        finish(game, "1-0")
    assert services.advance(tournament_id=tournament.pk) == "finished"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_a_late_entrant_plays_from_the_next_round_with_zero_for_the_missed_ones(
    organiser, players
) -> None:
    tournament = make_tournament(organiser, players[:4], rounds=5)
    services.start_tournament(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    assert selectors.registration_is_open(tournament)  # 1 of 5 rounds paired
    late = services.join(tournament=tournament, user=players[4])
    assert (late.seed, late.rating) == (5, 1950)  # the next pairing number
    assert pairs(tournament, 1) == [(1, 3), (4, 2)]  # round 1 stays as it was
    for game in open_games(tournament):
        finish(game, "1-0")
    assert services.advance(tournament_id=tournament.pk) == "paired"
    assert 5 in {seed for pair in pairs(tournament, 2) for seed in pair}
    table = selectors.standings(tournament)
    points = {row.participant.seed: row.points for row in table.rows}
    assert points[5] == 0  # round 1 missed: a zero-point bye
    entrant = next(line for line in selectors.trf(tournament).splitlines() if " p5 " in line)
    assert "0000 - Z" in entrant  # as a pairing program reads it
    for game in open_games(tournament):
        finish(game, "1-0")
    assert services.advance(tournament_id=tournament.pk) == "paired"  # round 3 of 5
    tournament.refresh_from_db()
    assert not selectors.registration_is_open(tournament)
    with pytest.raises(errors.RegistrationClosed):
        services.join(tournament=tournament, user=players[5])


def test_no_late_entries_when_the_organiser_says_so_or_in_a_round_robin(organiser, players) -> None:
    closed = make_tournament(organiser, players[:4], rounds=5, late_entries=False)
    robin = make_tournament(organiser, players[:4], format="roundrobin", late_entries=True)
    for tournament in (closed, robin):
        services.start_tournament(tournament=tournament, by=organiser)
        tournament.refresh_from_db()
        assert not selectors.registration_is_open(tournament)
        with pytest.raises(errors.RegistrationClosed):
            services.join(tournament=tournament, user=players[5])
    assert robin.late_entries is False  # a round robin's schedule is fixed at the start


def test_a_requested_half_point_bye_sits_the_round_out_for_half_a_point(organiser, players) -> None:
    tournament = make_tournament(organiser, players[:5], rounds=3)
    assert tournament.half_point_byes == 1  # the default of a Swiss
    assert services.request_bye(tournament=tournament, user=players[4], round_number=1) == [1]
    assert services.request_bye(tournament=tournament, user=players[4], round_number=1) == [1]
    with pytest.raises(errors.ByeRefused, match="1 half-point bye"):
        services.request_bye(tournament=tournament, user=players[4], round_number=2)
    with pytest.raises(errors.ByeRefused, match="never the last round"):
        services.request_bye(tournament=tournament, user=players[0], round_number=3)
    services.start_tournament(tournament=tournament, by=organiser)
    # Four play, the fifth sits out: no pairing bye, a half-point bye board.
    assert pairs(tournament, 1) == [(1, 3), (4, 2), (5, 0)]
    bye = Pairing.objects.get(round__tournament=tournament, round__number=1, white__seed=5)
    assert (bye.white_outcome, bye.result_display) == ("H", "½")
    with pytest.raises(errors.ByeRefused, match="already paired"):
        services.cancel_bye(tournament=tournament, user=players[4], round_number=1)
    with pytest.raises(errors.ByeRefused, match="already paired"):
        services.request_bye(tournament=tournament, user=players[0], round_number=1)
    for game in open_games(tournament):
        finish(game, "1-0")
    table = selectors.standings(tournament)
    assert {row.participant.seed: row.points for row in table.rows}[5] == 1  # half-points
    entrant = next(line for line in selectors.trf(tournament).splitlines() if " p5 " in line)
    assert "0000 - H" in entrant
    # Asked for round 3 and taken back before it is paired: nothing left.
    assert services.request_bye(tournament=tournament, user=players[0], round_number=2) == [2]
    assert services.cancel_bye(tournament=tournament, user=players[0], round_number=2) == []
    with pytest.raises(errors.NotJoined):
        services.request_bye(tournament=tournament, user=players[5], round_number=2)


def test_a_round_where_everybody_sits_out_is_still_a_round(organiser, players) -> None:
    tournament = make_tournament(organiser, players[:4], rounds=3)
    services.start_tournament(tournament=tournament, by=organiser)
    for user in players[:4]:
        services.request_bye(tournament=tournament, user=user, round_number=2)
    for game in open_games(tournament):
        finish(game, "1-0")
    assert services.advance(tournament_id=tournament.pk) == "paired"
    assert pairs(tournament, 2) == [(1, 0), (2, 0), (3, 0), (4, 0)]
    # Nothing to play in round 2: round 3 follows at once, without a repeated game.
    assert services.advance(tournament_id=tournament.pk) == "paired"
    third = pairs(tournament, 3)
    assert len(third) == 2 and all(black for _white, black in third)
    met = {frozenset(pair) for pair in pairs(tournament, 1)}
    assert not met & {frozenset(pair) for pair in third}


def test_half_point_byes_are_a_swiss_setting(organiser, players) -> None:
    with pytest.raises(errors.InvalidTournament) as caught:
        services.create_tournament(
            organiser=organiser, name="S", format="swiss", rounds=3, half_point_byes=4
        )
    assert set(caught.value.details["fields"]) == {"half_point_byes"}
    robin = make_tournament(organiser, players[:3], format="roundrobin", half_point_byes=2)
    assert robin.half_point_byes == 0
    one_round = make_tournament(organiser, players[:2], rounds=1, half_point_byes=1)
    assert one_round.half_point_byes == 0  # never for the last round
    with pytest.raises(errors.ByeRefused, match="no half-point byes"):
        services.request_bye(tournament=robin, user=players[0], round_number=1)


def test_pairing_a_round_twice_creates_it_once(organiser, players) -> None:
    tournament = make_tournament(organiser, players, rounds=3)
    services.start_tournament(tournament=tournament, by=organiser)
    for game in open_games(tournament):
        finish(game, "1-0")
    first = services.pair_round(tournament_id=tournament.pk, round_number=2)
    again = services.pair_round(tournament_id=tournament.pk, round_number=2)
    assert first is not None and again is None
    assert Pairing.objects.filter(round=first).count() == 3
    assert Game.objects.filter(tournament_pairing__round__tournament=tournament).count() == 6


def test_round_robin_follows_the_berger_table_with_a_bye(organiser, players) -> None:
    tournament = make_tournament(organiser, players[:5], format="roundrobin", bye_points=1)
    services.start_tournament(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    assert tournament.rounds == 5
    assert pairs(tournament, 1) == pairing.berger_rounds(5)[0]
    bye = Pairing.objects.get(round__tournament=tournament, black__isnull=True)
    assert bye.white_outcome == "U" and bye.game is None


def test_all_at_once_round_robin_starts_every_game(organiser, players) -> None:
    tournament = make_tournament(
        organiser, players[:4], format="double", all_at_once=True, name="Double"
    )
    services.start_tournament(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    assert (tournament.rounds, tournament.current_round) == (6, 6)
    assert len(open_games(tournament)) == 12
    for number, expected in enumerate(pairing.berger_rounds(4, double=True), start=1):
        assert pairs(tournament, number) == expected


def test_timeout_and_abandon_score_as_forfeits(organiser, players) -> None:
    from games import services as game_services

    tournament = make_tournament(organiser, players[:4], rounds=2)
    services.start_tournament(tournament=tournament, by=organiser)
    first, second = open_games(tournament)
    game_services.adjudicate(game=first, result="0-1", termination="timeout")
    finish(second, "1/2-1/2")
    outcomes = list(
        Pairing.objects.filter(round__tournament=tournament)
        .order_by("board")
        .values_list("white_outcome", "black_outcome")
    )
    assert outcomes == [("-", "+"), ("=", "=")]


def test_withdrawn_player_forfeits_open_games_and_is_not_paired_again(organiser, players) -> None:
    tournament = make_tournament(organiser, players[:5], rounds=3)
    services.start_tournament(tournament=tournament, by=organiser)
    quitter = players[0]
    services.withdraw(tournament=tournament, user=quitter)
    row = Pairing.objects.get(round__number=1, white__user=quitter)
    assert (row.white_outcome, row.game.termination) == ("-", "abandoned")
    for game in open_games(tournament):
        finish(game, "1-0")
    services.advance(tournament_id=tournament.pk)
    assert 1 not in {seed for pair in pairs(tournament, 2) for seed in pair}
    assert len(pairs(tournament, 2)) == 2  # four players left: no bye


def test_round_robin_withdrawal_scores_later_rounds_as_forfeits(organiser, players) -> None:
    tournament = make_tournament(organiser, players[:4], format="roundrobin")
    services.start_tournament(tournament=tournament, by=organiser)
    for game in open_games(tournament):
        finish(game, "1/2-1/2")
    services.withdraw(tournament=tournament, user=players[3])  # seed 4, after round 1
    services.advance(tournament_id=tournament.pk)
    rows = Pairing.objects.filter(round__number=2).select_related("white", "black")
    forfeits = [r for r in rows if 4 in (r.white.seed, r.black.seed)]
    assert len(forfeits) == 1 and forfeits[0].game is None
    mine = "white_outcome" if forfeits[0].white.seed == 4 else "black_outcome"
    assert getattr(forfeits[0], mine) == "-"


def test_standings_use_tiebreaks_in_the_chosen_order(organiser, players) -> None:
    tournament = make_tournament(
        organiser, players[:3], format="roundrobin", tiebreaks=["SB", "WIN", "BPG"]
    )
    services.start_tournament(tournament=tournament, by=organiser)
    # Three rounds, one game each (3 players: a bye every round).
    for _ in range(3):
        (game,) = open_games(tournament)
        finish(game, "1-0")
        services.advance(tournament_id=tournament.pk)
    table = selectors.standings(tournament)
    assert not table.provisional
    assert table.tiebreaks == ("SB", "WIN", "BPG")
    assert [row.points for row in table.rows] == sorted(
        (r.points for r in table.rows), reverse=True
    )
    assert sum(row.points for row in table.rows) == 3 * 2 + 3 * 2  # 3 games + 3 byes of 1 point
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def test_standings_are_provisional_while_games_are_on(organiser, players) -> None:
    tournament = make_tournament(organiser, players[:4], rounds=3)
    services.start_tournament(tournament=tournament, by=organiser)
    first, _second = open_games(tournament)
    finish(first, "0-1")
    table = selectors.standings(tournament)
    assert table.provisional
    assert [r.points_display for r in table.rows][:1] == ["1"]


def test_scheduled_start_without_players_cancels(organiser, players) -> None:
    import datetime

    from django.utils import timezone

    soon = timezone.now() + datetime.timedelta(minutes=5)
    lonely = make_tournament(organiser, players[:1], starts_at=soon, name="Lonely")
    busy = make_tournament(organiser, players[1:4], starts_at=soon, name="Busy")
    assert services.start_due_tournaments(now=soon) == [busy.pk]
    lonely.refresh_from_db()
    busy.refresh_from_db()
    assert (lonely.status, busy.status) == ("cancelled", "starting")  # its start job is queued


def test_after_a_pie_opening_the_board_keeps_the_colours_actually_played(organiser, players):
    from games import services as game_services

    tournament = make_tournament(organiser, players[:2], format="roundrobin", opening="pie")
    services.start_tournament(tournament=tournament, by=organiser)
    (game,) = open_games(tournament)
    placer, chooser = game.white, game.black
    assert game.status == Game.Status.SETUP
    game_services.setup_pie(game=game, player=placer, white="D2", black="D6")
    game = game_services.choose_color(game=game, player=chooser, color="white")
    assert game.white == chooser
    game_services.resign(game=game, player=placer)
    row = Pairing.objects.select_related("white__user", "black__user").get(game=game)
    assert (row.white.user, row.black.user) == (chooser, placer)
    assert (row.white_outcome, row.black_outcome) == ("1", "0")
    assert selectors.trf(tournament).count(" w 1") == 1


def test_absent_swiss_player_sits_out_with_a_zero_point_bye(organiser, players) -> None:
    tournament = make_tournament(organiser, players[:5], rounds=3)
    services.start_tournament(tournament=tournament, by=organiser)
    absentee = tournament.participants.get(seed=2)
    services.set_absent(tournament=tournament, participant=absentee, absent=True, by=organiser)
    for game in open_games(tournament):
        finish(game, "1/2-1/2")
    services.advance(tournament_id=tournament.pk)
    assert 2 not in {seed for pair in pairs(tournament, 2) for seed in pair}
    state = selectors.snapshot(tournament)
    assert state.player(2).results[1].outcome == pairing.Outcome.ZERO_POINT_BYE
    with pytest.raises(errors.NotOrganiser):
        services.set_absent(
            tournament=tournament, participant=absentee, absent=False, by=players[0]
        )


def test_heartbeat_finds_tournaments_whose_round_is_over(organiser, players) -> None:
    tournament = make_tournament(organiser, players[:4], rounds=2)
    services.start_tournament(tournament=tournament, by=organiser)
    assert services.running_tournaments_to_advance() == []
    Pairing.objects.filter(round__tournament=tournament).update(
        white_outcome="1", black_outcome="0"
    )
    assert services.running_tournaments_to_advance() == [tournament.pk]


def test_swiss_that_cannot_be_paired_any_more_ends_cleanly(organiser, players) -> None:
    # Two players, three rounds: after they have met, no legal pairing is left.
    tournament = make_tournament(organiser, players[:2], rounds=3)
    services.start_tournament(tournament=tournament, by=organiser)
    (game,) = open_games(tournament)
    finish(game, "1-0")
    assert services.advance(tournament_id=tournament.pk) == "finished"
    tournament.refresh_from_db()
    assert (tournament.status, tournament.current_round) == ("finished", 1)


def test_round_robin_grid_shows_both_games_of_a_double_round_robin(organiser, players) -> None:
    tournament = make_tournament(
        organiser, players[:2], format="double", all_at_once=True, name="Match"
    )
    services.start_tournament(tournament=tournament, by=organiser)
    first, second = open_games(tournament)
    finish(first, "1-0")
    finish(second, "1/2-1/2")
    rows = selectors.read_rows(tournament)
    table = selectors.standings(tournament, rows=rows)
    grid = selectors.round_robin_grid(table, rows)
    leader = table.rows[0].participant.seed
    assert [r.points_display for r in table.rows] == ["1½", "½"]
    assert grid[0][0] == "×" and sorted(grid[0][1].split()) == ["1", "½"]
    assert sorted(grid[1][0].split()) == ["0", "½"]
    assert leader == first.white.tournament_entries.get().seed


def test_players_are_told_when_it_starts_and_when_a_round_is_paired(organiser, players) -> None:
    from notifications.models import Notification

    tournament = make_tournament(organiser, players[:4], rounds=2, name="Told Cup")
    services.start_tournament(tournament=tournament, by=organiser)
    started = Notification.objects.filter(kind="tournament_started")
    assert started.count() == 4
    assert {n.url for n in started} == {f"/tournaments/{tournament.pk}/"}
    assert Notification.objects.filter(kind="round_paired").count() == 4  # round 1
    for game in open_games(tournament):
        finish(game, "1-0")
    services.advance(tournament_id=tournament.pk)
    paired = Notification.objects.filter(kind="round_paired", params__round=2)
    assert sorted(n.user.username for n in paired) == ["p1", "p2", "p3", "p4"]
    assert all(n.params["tournament"] == "Told Cup" for n in paired)


def test_organiser_adjudicates_an_unfinished_board_or_scores_a_forfeit(organiser, players) -> None:
    tournament = make_tournament(organiser, players[:4], rounds=2)
    services.start_tournament(tournament=tournament, by=organiser)
    first, second = Pairing.objects.filter(round__tournament=tournament).order_by("board")
    with pytest.raises(errors.NotOrganiser):
        services.adjudicate_board(pairing=first, decision="1-0", by=players[0])
    with pytest.raises(errors.InvalidTournament):
        services.adjudicate_board(pairing=first, decision="2-0", by=organiser)
    decided = services.adjudicate_board(pairing=first, decision="1/2-1/2", by=organiser)
    assert (decided.white_outcome, decided.black_outcome) == ("=", "=")  # a played game
    game = Game.objects.get(pk=first.game_id)
    assert (game.result, game.termination) == ("1/2-1/2", "adjudication")
    forfeit = services.adjudicate_board(pairing=second, decision="-+", by=organiser)
    assert (forfeit.white_outcome, forfeit.black_outcome) == ("-", "+")
    assert Game.objects.get(pk=second.game_id).termination == "abandoned"
    with pytest.raises(errors.WrongTournamentState, match="already decided"):
        services.adjudicate_board(pairing=first, decision="1-0", by=organiser)
    assert services.advance(tournament_id=tournament.pk) == "paired"  # the round is over


def test_an_adjudication_follows_the_board_when_a_pie_swapped_the_colours(
    organiser, players
) -> None:
    from games import services as game_services

    tournament = make_tournament(organiser, players[:2], format="roundrobin", opening="pie")
    services.start_tournament(tournament=tournament, by=organiser)
    row = Pairing.objects.select_related("white__user", "black__user").get(
        round__tournament=tournament
    )
    game = Game.objects.get(pk=row.game_id)
    placer, chooser = game.white, game.black  # the board's White places, Black chooses
    assert (row.white.user, row.black.user) == (placer, chooser)
    game_services.setup_pie(game=game, player=placer, white="D2", black="D6")
    game_services.choose_color(game=game, player=chooser, color="white")
    # "1-0" as the board shows it: the board's White (now Black in the game) wins.
    services.adjudicate_board(pairing=row, decision="1-0", by=organiser)
    game.refresh_from_db()
    assert (game.white, game.result) == (chooser, "0-1")
    row = Pairing.objects.select_related("white__user").get(pk=row.pk)
    winner = row.white if row.white_outcome == "1" else row.black
    assert winner.user == placer


def test_absences_are_for_a_running_or_coming_swiss(organiser, players) -> None:
    robin = make_tournament(organiser, players[:3], format="roundrobin")
    entry = robin.participants.first()
    with pytest.raises(errors.WrongTournamentState, match="round robin"):
        services.set_absent(tournament=robin, participant=entry, absent=True, by=organiser)
    swiss = make_tournament(organiser, players[:3], rounds=1)
    services.start_tournament(tournament=swiss, by=organiser)
    for game in open_games(swiss):
        finish(game, "1-0")
    assert services.advance(tournament_id=swiss.pk) == "finished"
    with pytest.raises(errors.WrongTournamentState, match="over"):
        services.set_absent(
            tournament=swiss, participant=swiss.participants.first(), absent=True, by=organiser
        )


def test_every_game_of_a_tournament_gets_its_time_control(organiser, players) -> None:
    control = TimeControl.bank(5, increment_hours=12, weekend_pause=True)
    tournament = make_tournament(organiser, players[:4], time_control=control)
    assert tournament.time_control == control
    services.start_tournament(tournament=tournament)
    games = open_games(tournament)
    assert len(games) == 2
    for game in games:
        assert game.time_control == control
        assert game.deadline is not None


def test_the_tournament_form_takes_a_time_control(organiser) -> None:
    from tournaments.forms import TournamentForm

    form = TournamentForm(
        {
            "name": "Bank Cup", "format": "roundrobin", "opening": "standard",
            "clock_kind": "bank", "days_per_turn": "20", "increment_hours": "24",
            "bye_points": "2",
        }
    )  # fmt: skip
    assert form.is_valid(), form.errors
    arguments = form.service_arguments()
    assert arguments["time_control"] == TimeControl.bank(20, increment_hours=24)
    tournament = services.create_tournament(organiser=organiser, **arguments)
    assert (tournament.clock_kind, tournament.clock_increment) == ("bank", 24 * 3600)
    # The older form (no kind): any number of days per turn up to 30.
    legacy = TournamentForm(
        {"name": "Old", "format": "roundrobin", "opening": "standard", "days_per_turn": "4",
         "bye_points": "2"}
    )  # fmt: skip
    assert legacy.is_valid(), legacy.errors
    assert legacy.service_arguments()["time_control"] == TimeControl.per_turn(4)
