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


def test_unplayed_rounds_use_the_virtual_opponent() -> None:
    t = swiss_with_byes()
    assert t.points() == {1: 5, 2: 3, 3: 4, 4: 0, 5: 3}
    # Opponents' scores with their own unplayed rounds counted as draws:
    # 1: 2.5 | 2: ½ + ½(H) + ½ = 1.5 | 3: ½(U) + 0 + 1 = 1.5 | 4: 0 + ½(-) + 0 = ½ | 5: ½ + ½ + ½ = 1.5
    # Virtual opponents, Svon = SPR + (1 - SfPR) + ½(n - R), n = 3:
    # 2 in R2 (H): ½ + ½ + ½ = 1.5      3 in R1 (U): 0 + 0 + 1 = 1
    # 4 in R2 (-): 0 + 1 + ½ = 1.5      5 in R2 (+): ½ + 0 + ½ = 1;  5 in R3 (Z): 1.5 + 1 + 0 = 2.5
    # BH: 1: ½ + 1.5 + 1.5 = 3.5      C1: 3.5 - ½ = 3      SB: ½x1 + 1.5x1 + 1.5x½ = 2.75
    #     2: 1.5 + 1.5 + 2.5 = 5.5        5.5 - 1.5 = 4        1.5x½ + 1.5x½ + 2.5x½ = 2.75
    #     3: 1 + 2.5 + ½ = 4              4 - ½ = 3.5          1x1 + 2.5x0 + ½x1 = 1.5
    #     4: 2.5 + 1.5 + 1.5 = 5.5        5.5 - 1.5 = 4        0
    #     5: 1.5 + 1 + 2.5 = 5            5 - 1 = 4            1.5x½ + 1x1 + 2.5x0 = 1.75
    values = tiebreak_values(t, ["BH", "BH-C1", "SB", "WIN", "WON"])
    assert values == {
        1: (7, 6, 11, 2, 2),
        2: (11, 8, 11, 0, 0),
        3: (8, 7, 6, 2, 1),  # the full-point pairing bye is a win, not one over the board
        4: (11, 8, 0, 0, 0),
        5: (10, 8, 7, 1, 0),  # the forfeit win is a win, not one over the board
    }
    table = standings(t, ["BH-C1", "BH"])
    # 2 and 5 tie on 1.5 points and on C1 (4); BH 5.5 beats 5.
    assert [s.player_id for s in table] == [1, 3, 2, 5, 4]


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
    table = standings(t, ["BH"], rounds=1)
    assert [(s.player_id, s.points) for s in table] == [(1, 2), (3, 2), (2, 1), (5, 1), (4, 0)]
    # n = 1 now: 3's virtual opponent has 0 + (1 - 1) + 0 = 0.
    assert tiebreak_values(t, ["BH"], rounds=1)[3] == (0,)


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
