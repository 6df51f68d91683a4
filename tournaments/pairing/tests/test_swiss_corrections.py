"""Where py4swiss alone disagrees with the FIDE rules / bbpPairings, and our adapter fixes it.

Each case is a reproduction of a reported difference; the expected pairing
is bbpPairings' (both its 5.0.1 and current versions agree on these).
"""

from tournaments.pairing import (
    Outcome,
    PlayerEntry,
    RoundResult,
    Tournament,
    effective_pairing_numbers,
    pair_next_round,
    read_trf,
)
from tournaments.pairing.swiss import colour_preference

Z, H, U = Outcome.ZERO_POINT_BYE, Outcome.HALF_POINT_BYE, Outcome.PAIRING_BYE


def never_shows_up() -> Tournament:
    """Six players; 1 never shows up. Round 1: 2-3 1-0, 4 and 5 half-point byes, 6 the bye."""
    g = RoundResult
    rows = {
        1: [g.bye(Z)],
        2: [g(3, "w", Outcome.WIN)],
        3: [g(2, "b", Outcome.LOSS)],
        4: [g.bye(H)],
        5: [g.bye(H)],
        6: [g.bye(U)],
    }
    players = [PlayerEntry(p, f"P{p}", 2000 - p, results=r) for p, r in rows.items()]
    return Tournament(tuple(players), 3, requested_byes={1: Z})


def test_colours_without_history_use_the_effective_pairing_number() -> None:
    # Round 2: 2-6 (1 point), 4-5 (½ each, neither has played), 3 the bye.
    # 4 is the higher ranked; 1 was never paired and is absent again, so 4's
    # effective pairing number is 3 (odd): 4 gets the initial colour, White.
    # By starting rank (4, even) 4 would get Black.
    t = never_shows_up()
    assert effective_pairing_numbers(t) == {2: 1, 3: 2, 4: 3, 5: 4, 6: 5}
    assert sorted(pair_next_round(t).pairs()) == [(3, 0), (4, 5), (6, 2)]


def test_a_player_paired_once_keeps_counting_while_absent() -> None:
    # If 1 had played round 1 (and lost by forfeit), 1 keeps its number even
    # while absent: 4 is then number 4 (even) and gets Black against 5.
    t = never_shows_up()
    players = list(t.players)
    players[0] = PlayerEntry(1, "P1", 1999, results=[RoundResult(6, "w", Outcome.FORFEIT_LOSS)])
    players[5] = PlayerEntry(6, "P6", 1994, results=[RoundResult(1, "b", Outcome.FORFEIT_WIN)])
    t = Tournament(tuple(players), 3, requested_byes={1: Z})
    assert effective_pairing_numbers(t) == {2: 2, 3: 3, 4: 4, 5: 5, 6: 6}
    assert (5, 4) in pair_next_round(t).pairs()


# Eight players before round 6 of 7. Player 1 had W W W B B: colour
# difference +1 and the last two games with Black, so by C.04.3 A.6.a an
# absolute preference for White (py4swiss said absolute Black). Player 7
# (W B B B W, difference -1) has a strong preference for White: the absolute
# one wins (E.2), so 1 has White against 7.
ROUND_SIX = """\
001    1      Player 1                          2350                             5.0    1     4 w 1     2 w 1     6 w 1     3 b 1     5 b 1
001    2      Player 2                          2300                             1.5    5     5 b =     1 b 0     7 w 0     4 b =     8 w =
001    3      Player 3                          2250                             0.5    7     6 w =     8 b 0     5 b 0     1 w 0     7 b 0
001    4      Player 4                          2200                             0.5    8     1 b 0     7 w 0     8 b 0     2 w =     6 b 0
001    5      Player 5                          2150                             2.5    4     2 w =     6 b 1     3 w 1     7 w 0     1 w 0
001    6      Player 6                          2100                             1.5    6     3 b =     5 w 0     1 b 0     8 w 0     4 w 1
001    7      Player 7                          2050                             5.0    2     8 w 1     4 b 1     2 b 1     5 b 1     3 w 1
001    8      Player 8                          2000                             3.5    3     7 b 0     3 w 1     4 w 1     6 b 1     2 b =
XXR 7
XXC white1
"""


def test_two_blacks_after_a_plus_one_difference_ask_for_white() -> None:
    t = read_trf(ROUND_SIX).tournament
    pairs = pair_next_round(t).pairs()
    assert (1, 7) in pairs
    assert sorted(pairs) == [(1, 7), (2, 6), (3, 4), (8, 5)]


def test_colour_preference_follows_a6() -> None:
    def pref(colours: str) -> tuple[int, int]:
        p = colour_preference([c == "w" for c in colours])
        return int(p.side), int(p.strength)

    white, black, none = 1, -1, 0
    absolute, strong, mild = 3, 2, 1
    assert pref("wwwbb") == (white, absolute)  # difference +1, last two Black
    assert pref("bbbww") == (black, absolute)  # difference -1, last two White
    assert pref("wwbwb") == (black, strong)
    assert pref("wwbbw") == (black, strong)
    assert pref("wwwwb") == (black, absolute)  # difference +3 decides
    assert pref("wb") == (white, mild)
    assert pref("") == (none, 0)
