"""Standings and tie-breaks on small tournaments checked by hand.

Values are in the package's units: points, BH, BH-C1, DE in half-points,
SB in quarter-points. The comments give the hand calculation in points.
"""

import random
import time

import pytest

from tournaments.pairing import (
    Outcome,
    PlayerEntry,
    RoundResult,
    Tournament,
    berger_rounds,
    format_tiebreak,
    standings,
    tiebreak_values,
)

W, D, L = Outcome.WIN, Outcome.DRAW, Outcome.LOSS


def round_robin(results: dict[tuple[int, int], Outcome], n: int) -> Tournament:
    """Play the Berger table for n players; ``results`` gives White's outcome per pair."""
    rows: dict[int, list[RoundResult]] = {p: [] for p in range(1, n + 1)}
    for rnd in berger_rounds(n):
        for white, black in rnd:
            outcome = results[(white, black)]
            rows[white].append(RoundResult(black, "w", outcome))
            rows[black].append(RoundResult(white, "b", outcome.mirror))
    players = tuple(PlayerEntry(p, f"P{p}", results=rows[p]) for p in rows)
    return Tournament(players, len(berger_rounds(n)))


# Berger n=4: R1 1-4 2-3, R2 4-3 1-2, R3 2-4 3-1 (White first).
# 1: beat 4, drew 2, beat 3 (Black)  -> 2.5
# 2: drew 3, drew 1, beat 4          -> 2
# 3: drew 2, beat 4 (Black), lost 1  -> 1.5
# 4: lost everything                 -> 0
ALL_PLAYED = round_robin({(1, 4): W, (2, 3): D, (4, 3): L, (1, 2): D, (2, 4): W, (3, 1): L}, 4)


def test_all_played_round_robin() -> None:
    names = ["BH", "BH-C1", "SB", "WIN", "WON", "BPG", "BWG"]
    values = tiebreak_values(ALL_PLAYED, names)
    # BH:  1: 0 + 2 + 1.5 = 3.5 | 2: 1.5 + 2.5 + 0 = 4 | 3: 2 + 0 + 2.5 = 4.5 | 4: 2.5 + 1.5 + 2 = 6
    # C1:  1: 3.5 - 0 | 2: 4 - 0 | 3: 4.5 - 0 | 4: 6 - 1.5 = 4.5
    # SB:  1: 0x1 + 2x½ + 1.5x1 = 2.5 | 2: 1.5x½ + 2.5x½ + 0x1 = 2 | 3: 2x½ + 0x1 = 1 | 4: 0
    # BPG: 1 plays Black in R3 only; 2 in R2; 3 in R1 and R2; 4 in R1 and R3.
    assert values == {
        1: (7, 7, 10, 2, 2, 1, 1),
        2: (8, 8, 8, 1, 1, 1, 0),
        3: (9, 9, 4, 1, 1, 2, 1),
        4: (12, 9, 0, 0, 0, 2, 0),
    }
    table = standings(ALL_PLAYED, ["SB"])
    assert [(s.rank, s.player_id, s.points) for s in table] == [
        (1, 1, 5),
        (2, 2, 4),
        (3, 3, 3),
        (4, 4, 0),
    ]
    assert format_tiebreak("SB", table[0].tiebreaks[0]) == "2.5"


# Same table, other results:
# 1: beat 4, lost to 2, beat 3 -> 2     2: lost to 3, beat 1, beat 4 -> 2
# 3: beat 2, lost to 4, lost to 1 -> 1  4: lost to 1, beat 3, lost to 2 -> 1
DE_TIES = round_robin({(1, 4): W, (2, 3): L, (4, 3): W, (1, 2): L, (2, 4): W, (3, 1): L}, 4)


def test_direct_encounter_orders_tied_players_who_met() -> None:
    # 2 beat 1 and 4 beat 3: DE puts 2 before 1 and 4 before 3 despite starting ranks.
    table = standings(DE_TIES, ["DE"])
    assert [s.player_id for s in table] == [2, 1, 4, 3]
    assert [s.tiebreaks for s in table] == [(2,), (0,), (2,), (0,)]


def test_direct_encounter_only_counts_among_players_still_tied() -> None:
    # BH 1: opponents 4 (1) + 2 (2) + 3 (1) = 4; BH 2: 3 (1) + 1 (2) + 4 (1) = 4.
    # Still tied after BH, so DE applies between 1 and 2 (2 won their game).
    values = tiebreak_values(DE_TIES, ["BH", "DE"])
    assert values[1] == (8, 0) and values[2] == (8, 2)
    # SB separates them first (1: 1x1 + 1x1 = 2, 2: 2x1 + 1x1 = 3), so DE
    # finds nobody left to compare with and gives 0.
    values = tiebreak_values(DE_TIES, ["SB", "DE"])
    assert values[1] == (8, 0) and values[2] == (12, 0)


# A Swiss event with every kind of unplayed round, 5 players, 3 rounds:
# R1: 1-4 1-0, 2-5 ½-½, 3 pairing bye (U)
# R2: 3-1 0-1, 5-4 forfeit (5 wins), 2 half-point bye (H)
# R3: 1-2 ½-½, 4-3 0-1, 5 absent (Z)
def swiss_with_byes(bye_points: int = 2) -> Tournament:
    g = RoundResult
    rows = {
        1: [g(4, "w", W), g(3, "b", W), g(2, "w", D)],
        2: [g(5, "w", D), g.bye(Outcome.HALF_POINT_BYE), g(1, "b", D)],
        3: [g.bye(Outcome.PAIRING_BYE), g(1, "w", L), g(4, "b", W)],
        4: [g(1, "b", L), g(5, "b", Outcome.FORFEIT_LOSS), g(3, "w", L)],
        5: [g(2, "b", D), g(4, "w", Outcome.FORFEIT_WIN), g.bye(Outcome.ZERO_POINT_BYE)],
    }
    players = tuple(PlayerEntry(p, f"P{p}", results=r) for p, r in rows.items())
    t = Tournament(players, 3, bye_points=bye_points)
    t.validate()
    return t


def test_unplayed_rounds_by_the_2023_rules() -> None:
    t = swiss_with_byes()
    assert t.points() == {1: 5, 2: 3, 3: 4, 4: 0, 5: 3}
    # Final scores: 1: 2.5 | 2: 1.5 | 3: 2 | 4: 0 | 5: 1.5 (nobody withdrew, so
    # opponents count with their scores as they are).
    # Contributions per round; an unplayed round of my own counts as a virtual
    # opponent with my own final score ("v"), voluntary ones (H, Z, forfeit loss) marked "*":
    #   1: 4 -> 0,    3 -> 2,     2 -> 1.5                    BH 3.5
    #   2: 5 -> 1.5,  H -> v1.5*, 1 -> 2.5                    BH 5.5
    #   3: U -> v2,   1 -> 2.5,   4 -> 0                      BH 4.5
    #   4: 1 -> 2.5,  - -> v0*,   3 -> 2                      BH 4.5
    #   5: 2 -> 1.5,  + -> v1.5,  Z -> v1.5*                  BH 4.5
    # BH-C1 cuts a voluntary round first, else the lowest:
    #   1: 3.5 - 0 = 3.5 | 2: 5.5 - 1.5(H) = 4 | 3: 4.5 - 0 = 4.5 | 4: 4.5 - 0(-) = 4.5
    #   5: 4.5 - 1.5(Z) = 3
    # BH-C2 cuts one more, the lowest of the rest:
    #   1: 3.5 - 0 - 1.5 = 2 | 2: 4 - 1.5 = 2.5 | 3: 4.5 - 0 - 2 = 2.5 | 4: 4.5 - 0 - 2 = 2.5
    #   5: 3 - 1.5 = 1.5
    # BH-M1 cuts the lowest (voluntary first) and the highest:
    #   1: 3.5 - 0 - 2 = 1.5 | 2: 5.5 - 1.5 - 2.5 = 1.5 | 3: 4.5 - 0 - 2.5 = 2
    #   4: 4.5 - 0 - 2.5 = 2 | 5: 4.5 - 1.5 - 1.5 = 1.5
    # SB, contribution x points scored in the round:
    #   1: 0x1 + 2x1 + 1.5x½ = 2.75 | 2: 1.5x½ + 1.5x½ + 2.5x½ = 2.75 | 3: 2x1 + 2.5x0 + 0x1 = 2
    #   4: 0 | 5: 1.5x½ + 1.5x1 + 1.5x0 = 2.25
    # PS, scores after each round summed:
    #   1: 1 + 2 + 2.5 = 5.5 | 2: ½ + 1 + 1.5 = 3 | 3: 1 + 1 + 2 = 4 | 4: 0 | 5: ½ + 1.5 + 1.5 = 3.5
    names = ["BH", "BH-C1", "BH-C2", "BH-M1", "SB", "PS", "WIN", "WON"]
    values = tiebreak_values(t, names)
    assert values == {
        1: (7, 7, 4, 3, 11, 11, 2, 2),
        2: (11, 8, 5, 3, 11, 6, 0, 0),
        3: (9, 9, 5, 4, 8, 8, 2, 1),  # the full-point pairing bye is a win, not one over the board
        4: (9, 9, 5, 4, 0, 0, 0, 0),
        5: (9, 6, 3, 3, 9, 7, 1, 0),  # the forfeit win is a win, not one over the board
    }
    table = standings(t, ["BH-C1", "BH"])
    # 2 and 5 tie on 1.5 points; C1 4 beats 3.
    assert [s.player_id for s in table] == [1, 3, 2, 5, 4]


# Six players, four rounds, 6 withdraws after round 2:
# R1: 1-4 1-0, 2-5 1-0, 3-6 ½-½
# R2: 1-2 ½-½, 4-6 0-1, 5-3 forfeit (3 wins)
# R3: 3-1 0-1, 2-4 1-0, 5 pairing bye, 6 withdrawn (Z)
# R4: 1-5 1-0, 4-3 ½-½, 2 half-point bye, 6 withdrawn (Z)
def swiss_with_withdrawal() -> Tournament:
    g, F, Z = RoundResult, Outcome.FORFEIT_WIN, Outcome.ZERO_POINT_BYE
    rows = {
        1: [g(4, "w", W), g(2, "w", D), g(3, "b", W), g(5, "w", W)],
        2: [g(5, "w", W), g(1, "b", D), g(4, "w", W), g.bye(Outcome.HALF_POINT_BYE)],
        3: [g(6, "w", D), g(5, "b", F), g(1, "w", L), g(4, "b", D)],
        4: [g(1, "b", L), g(6, "w", L), g(2, "b", L), g(3, "w", D)],
        5: [g(2, "b", L), g(3, "w", F.mirror), g.bye(Outcome.PAIRING_BYE), g(1, "b", L)],
        6: [g(3, "b", D), g(4, "b", W), g.bye(Z), g.bye(Z)],
    }
    players = [PlayerEntry(p, f"P{p}", results=r, withdrawn=p == 6) for p, r in rows.items()]
    return Tournament(tuple(players), 4)


def test_withdrawal_forfeits_and_byes_by_the_2023_rules() -> None:
    t = swiss_with_withdrawal()
    # Scores: 1: 3.5 | 2: 3 | 3: 2 | 4: ½ | 5: 1 | 6: 1.5. For his opponents 6's
    # two rounds after withdrawing count as draws: ½ + 1 + ½ + ½ = 2.5.
    # Contributions (v: virtual opponent with my own score, *: voluntary):
    #   1: 4 -> ½,   2 -> 3,     3 -> 2,     5 -> 1          BH 6.5
    #   2: 5 -> 1,   1 -> 3.5,   4 -> ½,     H -> v3*        BH 8
    #   3: 6 -> 2.5, + -> v2,    1 -> 3.5,   4 -> ½          BH 8.5
    #   4: 1 -> 3.5, 6 -> 2.5,   2 -> 3,     3 -> 2          BH 11
    #   5: 2 -> 3,   - -> v1*,   U -> v1,    1 -> 3.5        BH 8.5
    #   6: 3 -> 2,   4 -> ½,     Z -> v1.5*, Z -> v1.5*      BH 5.5
    # BH-C1: 1: 6.5 - ½ = 6 | 2: 8 - 3(H) = 5 | 3: 8.5 - ½ = 8 | 4: 11 - 2 = 9
    #        5: 8.5 - 1(-) = 7.5 | 6: 5.5 - 1.5(Z) = 4
    # SB: 1: ½x1 + 3x½ + 2x1 + 1x1 = 5 | 2: 1x1 + 3.5x½ + ½x1 + 3x½ = 4.75
    #     3: 2.5x½ + 2x1 + 3.5x0 + ½x½ = 3.5 | 4: 2x½ = 1 | 5: 1x1 (the bye) = 1
    #     6: 2x½ + ½x1 = 1.5
    # PS: 1: 1 + 1.5 + 2.5 + 3.5 = 8.5 | 2: 1 + 1.5 + 2.5 + 3 = 8 | 3: ½ + 1.5 + 1.5 + 2 = 5.5
    #     4: 0 + 0 + 0 + ½ = ½ | 5: 0 + 0 + 1 + 1 = 2 | 6: ½ + 1.5 + 1.5 + 1.5 = 5
    # WIN: 1: 3 | 2: 2 | 3: 1 (forfeit) | 4: 0 | 5: 1 (bye) | 6: 1;  WON: 3, 2, 0, 0, 0, 1
    names = ["BH", "BH-C1", "SB", "WIN", "WON", "PS"]
    assert tiebreak_values(t, names) == {
        1: (13, 12, 20, 3, 3, 17),
        2: (16, 10, 19, 2, 2, 16),
        3: (17, 16, 14, 1, 0, 11),
        4: (22, 18, 4, 0, 0, 1),
        5: (17, 15, 4, 1, 0, 4),
        6: (11, 8, 6, 1, 1, 10),
    }
    table = standings(t, names)
    assert [(s.player_id, s.points) for s in table] == [
        (1, 7),
        (2, 6),
        (3, 4),
        (6, 3),
        (5, 2),
        (4, 1),
    ]
    assert [format_tiebreak(n, v) for n, v in zip(names, table[1].tiebreaks, strict=True)] == [
        "8",
        "5",
        "4.75",
        "2",
        "2",
        "8",
    ]


def test_rounds_after_a_withdrawal_count_as_draws_for_the_opponents() -> None:
    t = swiss_with_withdrawal()
    # Not withdrawn, 6's Z rounds count as 0: 6 has 1.5, so 3's and 4's
    # contributions from 6 drop from 2.5 to 1.5 (BH 8.5 -> 7.5, 11 -> 10).
    as_absent = tiebreak_values(t, ["BH"], withdrawals={})
    assert as_absent[3] == (15,) and as_absent[4] == (20,)
    assert tiebreak_values(t, ["BH"])[3] == (17,)


def test_bye_value_changes_points_and_ties() -> None:
    t = swiss_with_byes(bye_points=1)
    assert t.points()[3] == 3  # ½ for the pairing bye
    # 2, 3 and 5 tie on 1.5; they did not all meet (3 met neither), so DE is 0 for all.
    values = tiebreak_values(t, ["DE"])
    assert values[2] == values[3] == values[5] == (0,)
    table = standings(t, ["DE"])
    assert [s.player_id for s in table] == [1, 2, 3, 5, 4]  # then by starting rank


def test_standings_after_an_earlier_round() -> None:
    t = swiss_with_byes()
    # After round 1: 1 and 3 have 1 point, 2 and 5 ½, 4 nothing.
    # BH after round 1: 1 met 4 (0); 3's bye is a virtual opponent with 3's
    # own score after round 1 (1 point), so 3 now ranks above 1.
    table = standings(t, ["BH"], rounds=1)
    assert [(s.player_id, s.points) for s in table] == [(3, 2), (1, 2), (2, 1), (5, 1), (4, 0)]
    assert tiebreak_values(t, ["BH"], rounds=1)[3] == (2,)


def test_unknown_tiebreak_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown tie-break"):
        standings(ALL_PLAYED, ["Koya"])


def test_thousand_players_in_under_a_second() -> None:
    """Standings with every tie-break for 1000 players, 9 random rounds, < 1 s."""
    rng = random.Random(5)
    n, rounds = 1000, 9
    rows: dict[int, list[RoundResult]] = {p: [] for p in range(1, n + 1)}
    for _ in range(rounds):
        order = list(range(1, n + 1))
        rng.shuffle(order)
        for white, black in zip(order[::2], order[1::2], strict=True):
            outcome = rng.choice((W, D, L))
            rows[white].append(RoundResult(black, "w", outcome))
            rows[black].append(RoundResult(white, "b", outcome.mirror))
    t = Tournament(tuple(PlayerEntry(p, f"P{p}", results=r) for p, r in rows.items()), rounds)
    started = time.perf_counter()
    table = standings(t, ["BH-C1", "BH", "SB", "DE", "WIN", "BPG"])
    assert time.perf_counter() - started < 1.0
    assert len(table) == n and [s.rank for s in table] == list(range(1, n + 1))


# Six players, three rounds; 1, 2 and 3 finish on 2 points. 3 beat 1 and 2,
# who never met each other.
# R1: 3-1 1-0, 2-4 1-0, 5-6 ½-½
# R2: 2-3 0-1, 1-5 1-0, 4-6 ½-½
# R3: 3-5 0-1, 1-4 1-0, 2-6 1-0
def tied_without_all_meeting() -> Tournament:
    g = RoundResult
    rows = {
        1: [g(3, "b", L), g(5, "w", W), g(4, "w", W)],
        2: [g(4, "w", W), g(3, "w", L), g(6, "w", W)],
        3: [g(1, "w", W), g(2, "b", W), g(5, "w", L)],
        4: [g(2, "b", L), g(6, "w", D), g(1, "b", L)],
        5: [g(6, "w", D), g(1, "b", L), g(3, "b", W)],
        6: [g(5, "b", D), g(4, "b", D), g(2, "b", L)],
    }
    return Tournament(tuple(PlayerEntry(p, f"P{p}", results=r) for p, r in rows.items()), 3)


def test_direct_encounter_separates_a_player_who_beat_everyone_tied() -> None:
    t = tied_without_all_meeting()
    # Among {1, 2, 3}: 3 scored 2 points; 1 and 2 scored 0 and could reach at
    # most 0 + 1 (their missing game): 3 is first with DE 2. 1 and 2 never met,
    # so they stay tied (0) and starting rank orders them.
    values = tiebreak_values(t, ["DE"])
    assert (values[3], values[1], values[2]) == ((4,), (0,), (0,))
    assert [s.player_id for s in standings(t, ["DE"])][:3] == [3, 1, 2]


def test_direct_encounter_cannot_separate_when_the_missing_game_could_change_it() -> None:
    # Same group but 3 only drew with 1: 3 has 1.5 points in the group, 1 has ½
    # and could reach 1.5 with a win over 2, so nobody is separated.
    t = tied_without_all_meeting()
    players = list(t.players)
    g = RoundResult
    players[0] = PlayerEntry(1, "P1", results=[g(3, "b", D), g(5, "w", W), g(4, "w", D)])
    players[2] = PlayerEntry(3, "P3", results=[g(1, "w", D), g(2, "b", W), g(5, "w", D)])
    players[3] = PlayerEntry(4, "P4", results=[g(2, "b", L), g(6, "w", D), g(1, "b", D)])
    players[4] = PlayerEntry(5, "P5", results=[g(6, "w", D), g(1, "b", L), g(3, "b", D)])
    t = Tournament(tuple(players), 3)
    assert t.points()[1] == t.points()[2] == t.points()[3] == 4
    values = tiebreak_values(t, ["DE"])
    assert values[1] == values[2] == values[3] == (0,)


RATED = round_robin({(1, 4): W, (2, 3): D, (4, 3): L, (1, 2): D, (2, 4): W, (3, 1): L}, 4)


def test_progressive_score_koya_and_average_rating_of_opponents() -> None:
    ratings = {1: 2000, 2: 1900, 3: 1800, 4: 1700}
    t = Tournament(
        tuple(PlayerEntry(p.id, p.name, ratings[p.id], results=p.results) for p in RATED.players),
        3,
    )
    # Same results as ALL_PLAYED: 1: 2.5 (W, D, W) | 2: 2 (D, D, W) | 3: 1.5 (D, W, L) | 4: 0.
    # PS: 1: 1 + 1.5 + 2.5 = 5 | 2: ½ + 1 + 2 = 3.5 | 3: ½ + 1.5 + 1.5 = 3.5 | 4: 0
    # KS: 50 % of 3 is 1.5, so 1, 2 and 3 count: 1: ½ (2) + 1 (3) = 1.5 | 2: ½ (3) + ½ (1) = 1
    #     3: ½ (2) + 0 (1) = ½ | 4: 0
    # ARO: 1: (1900 + 1800 + 1700) / 3 = 1800 | 2: 5500 / 3 = 1833.3 -> 1833
    #      3: 5600 / 3 = 1866.7 -> 1867 | 4: 5700 / 3 = 1900
    values = tiebreak_values(t, ["PS", "KS", "ARO"])
    assert values == {
        1: (10, 3, 1800),
        2: (7, 2, 1833),
        3: (7, 1, 1867),
        4: (0, 0, 1900),
    }


def test_average_rating_leaves_out_unplayed_rounds_and_unrated_opponents() -> None:
    t = swiss_with_byes()
    ratings = {1: 2100, 2: 0, 3: 1900, 4: 1800, 5: 1700}
    t = Tournament(
        tuple(PlayerEntry(p.id, p.name, ratings[p.id], results=p.results) for p in t.players), 3
    )
    # 1 met 4, 3 and 2 (unrated): (1800 + 1900) / 2 = 1850. 5 met only 2 over
    # the board (round 2 was a forfeit): no rated opponent, 0.
    values = tiebreak_values(t, ["ARO"])
    assert values[1] == (1850,) and values[5] == (0,) and values[3] == ((2100 + 1800) // 2,)
