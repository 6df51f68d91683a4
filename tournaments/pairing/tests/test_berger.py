"""Round robin schedules against the FIDE Berger tables (C.05 Annex 1)."""

from collections import Counter
from itertools import combinations

import pytest

from tournaments.pairing.berger import berger_rounds

# REFERENCE.md, n = 6, White first, boards in table order.
TABLE_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def colours(schedule: list[list[tuple[int, int]]], player: int) -> list[str]:
    """The player's colours in played games, byes skipped."""
    result = []
    for rnd in schedule:
        for white, black in rnd:
            if white == player and black:
                result.append("w")
            elif black == player:
                result.append("b")
    return result


def longest_run(sequence: list[str]) -> int:
    best = run = 0
    previous = None
    for item in sequence:
        run = run + 1 if item == previous else 1
        best = max(best, run)
        previous = item
    return best


def test_six_players_is_the_published_table() -> None:
    assert berger_rounds(6) == TABLE_6


def test_five_players_is_the_six_table_with_six_as_the_bye() -> None:
    rounds = berger_rounds(5)
    expected = [
        [pair for pair in rnd if 6 not in pair]
        + [(a if b == 6 else b, 0) for a, b in rnd if 6 in (a, b)]
        for rnd in TABLE_6
    ]
    assert rounds == expected
    assert [rnd[-1] for rnd in rounds] == [(1, 0), (4, 0), (2, 0), (5, 0), (3, 0)]


@pytest.mark.parametrize("n", range(2, 17))
def test_everyone_meets_everyone_exactly_once_per_cycle(n: int) -> None:
    rounds = berger_rounds(n)
    assert len(rounds) == (n if n % 2 else n - 1)
    games = Counter(frozenset(pair) for rnd in rounds for pair in rnd if pair[1])
    assert set(games) == {frozenset(p) for p in combinations(range(1, n + 1), 2)}
    assert set(games.values()) == {1}
    for rnd in rounds:  # everyone appears exactly once per round
        seen = [p for pair in rnd for p in pair if p]
        assert sorted(seen) == list(range(1, n + 1))
    byes = Counter(white for rnd in rounds for white, black in rnd if not black)
    assert (set(byes.values()) == {1} and len(byes) == n) if n % 2 else not byes


@pytest.mark.parametrize("n", range(2, 17))
def test_colours_are_balanced(n: int) -> None:
    for player in range(1, n + 1):
        played = colours(berger_rounds(n), player)
        assert abs(played.count("w") - played.count("b")) <= 1
        assert longest_run(played) <= 2


@pytest.mark.parametrize("n", range(3, 17))
def test_double_round_robin_reverses_colours_and_swaps_last_two_rounds(n: int) -> None:
    single = berger_rounds(n)
    double = berger_rounds(n, double=True)
    cycle = len(single)
    assert double[: cycle - 2] == single[: cycle - 2]
    assert double[cycle - 2] == single[-1] and double[cycle - 1] == single[-2]
    reversed_cycle = [[(b, a) if b else (a, 0) for a, b in rnd] for rnd in single]
    assert double[cycle:] == reversed_cycle
    for player in range(1, n + 1):
        played = colours(double, player)
        # Perfect balance over the two cycles, never three equal colours running.
        assert played.count("w") == played.count("b")
        assert longest_run(played) <= 2


def test_without_the_swap_someone_would_get_three_equal_colours() -> None:
    """Why the swap exists: the plain repetition breaks the colour rule at n = 6."""
    single = berger_rounds(6)
    plain = single + [[(b, a) for a, b in rnd] for rnd in single]
    assert max(longest_run(colours(plain, p)) for p in range(1, 7)) == 3


def test_two_players_and_errors() -> None:
    assert berger_rounds(2) == [[(1, 2)]]
    assert berger_rounds(2, double=True) == [[(1, 2)], [(2, 1)]]
    with pytest.raises(ValueError):
        berger_rounds(1)
