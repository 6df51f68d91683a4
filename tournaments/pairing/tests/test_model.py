"""Value types: points, outcomes, validation, starting ranks, recording rounds."""

import pytest

from tournaments.pairing import (
    Board,
    Outcome,
    PlayerEntry,
    RoundPairing,
    RoundResult,
    Tournament,
    TournamentError,
    assign_starting_ranks,
    format_points,
    record_round,
)


def test_points_are_half_points_driven_by_each_players_outcome() -> None:
    assert [o.points() for o in (Outcome.WIN, Outcome.DRAW, Outcome.LOSS)] == [2, 1, 0]
    assert Outcome.FORFEIT_WIN.points() == 2 and Outcome.FORFEIT_LOSS.points() == 0
    assert Outcome.HALF_POINT_BYE.points() == 1 and Outcome.FULL_POINT_BYE.points() == 2
    assert Outcome.ZERO_POINT_BYE.points() == 0
    assert [Outcome.PAIRING_BYE.points(b) for b in (2, 1, 0)] == [2, 1, 0]


def test_format_points() -> None:
    assert [format_points(h) for h in range(5)] == ["0", "½", "1", "1½", "2"]
    assert [format_points(h, ascii=True) for h in (0, 1, 7)] == ["0", "0.5", "3.5"]


def test_outcome_kinds_and_mirror() -> None:
    assert Outcome.WIN.mirror is Outcome.LOSS and Outcome.FORFEIT_LOSS.mirror is Outcome.FORFEIT_WIN
    assert Outcome.DRAW_UNRATED.is_played and not Outcome.FORFEIT_WIN.is_played
    assert Outcome.PAIRING_BYE.is_bye and not Outcome.FORFEIT_WIN.is_bye
    with pytest.raises(ValueError):
        _ = Outcome.HALF_POINT_BYE.mirror


def test_round_result_shape_is_checked() -> None:
    with pytest.raises(TournamentError):
        RoundResult(3, None, Outcome.PAIRING_BYE)
    with pytest.raises(TournamentError):
        RoundResult(None, None, Outcome.WIN)
    with pytest.raises(TournamentError):
        RoundResult(2, None, Outcome.DRAW)
    assert RoundResult(2, None, Outcome.FORFEIT_WIN).outcome is Outcome.FORFEIT_WIN


def test_starting_ranks_by_rating_then_name() -> None:
    ranked = assign_starting_ranks([("zoe", 1500), ("Adam", 1500), ("Max", 2100), ("adam", 1500)])
    assert [(p.id, p.name) for p in ranked] == [(1, "Max"), (2, "Adam"), (3, "adam"), (4, "zoe")]


def two_players(results_1: list[RoundResult], results_2: list[RoundResult]) -> Tournament:
    return Tournament(
        (PlayerEntry(1, "A", results=results_1), PlayerEntry(2, "B", results=results_2)), 3
    )


@pytest.mark.parametrize(
    ("t", "message"),
    [
        (two_players([RoundResult(2, "w", Outcome.WIN)], []), "player 2 has 0 results"),
        (
            two_players([RoundResult(2, "w", Outcome.WIN)], [RoundResult(1, "b", Outcome.WIN)]),
            "do not match",
        ),
        (
            two_players([RoundResult(2, "w", Outcome.WIN)], [RoundResult(1, "w", Outcome.LOSS)]),
            "same colour",
        ),
        (
            two_players([RoundResult(2, "w", Outcome.WIN)], [RoundResult.bye(Outcome.PAIRING_BYE)]),
            "does not list this game",
        ),
        (
            Tournament((PlayerEntry(2, "B"),), 3),
            "starting ranks must be 1..1",
        ),
        (
            Tournament((PlayerEntry(1, "A"),), 3, requested_byes={1: Outcome.PAIRING_BYE}),
            "must be H, F or Z",
        ),
    ],
)
def test_inconsistent_tournaments_are_rejected(t: Tournament, message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        t.validate()


def test_double_forfeit_is_consistent() -> None:
    two_players(
        [RoundResult(2, "w", Outcome.FORFEIT_LOSS)], [RoundResult(1, "b", Outcome.FORFEIT_LOSS)]
    ).validate()


def test_record_round_writes_both_sides_byes_and_absences() -> None:
    players = [PlayerEntry(i, f"P{i}") for i in range(1, 5)]
    players.append(PlayerEntry(5, "P5", withdrawn=True))
    t = Tournament(players, 3, requested_byes={4: Outcome.HALF_POINT_BYE})
    pairing = RoundPairing(1, (Board(2, 1), Board(3, None)))
    after = record_round(t, pairing, {2: Outcome.FORFEIT_WIN})
    assert [p.results for p in after.players] == [
        (RoundResult(2, "b", Outcome.FORFEIT_LOSS),),
        (RoundResult(1, "w", Outcome.FORFEIT_WIN),),
        (RoundResult.bye(Outcome.PAIRING_BYE),),
        (RoundResult.bye(Outcome.HALF_POINT_BYE),),
        (RoundResult.bye(Outcome.ZERO_POINT_BYE),),
    ]
    assert after.rounds_played == 1 and not after.requested_byes
    assert after.player(5).withdrawn
    after.validate()


def test_accelerations_survive_recording_and_simulated_rounds() -> None:
    from tournaments.pairing import pair_next_round
    from tournaments.pairing.simulate import play_random_rounds, random_entrants_tournament

    t = random_entrants_tournament(8, 4, seed=2)
    t = Tournament(t.players, 4, accelerations={1: (2, 2), 2: (2, 2)})
    t = play_random_rounds(t, 2, pair_next_round, seed=2, absence_rate=0.3)
    assert t.accelerations == {1: (2, 2), 2: (2, 2)}
    assert t.acceleration(1, 2) == 2 and t.acceleration(1, 3) == 0
