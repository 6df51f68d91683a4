"""The pairing checker: each absolute criterion, on small hand-made rounds."""

import pytest

from tournaments.pairing import (
    Outcome,
    PlayerEntry,
    RoundResult,
    Tournament,
    pair_next_round,
    read_trf,
)
from tournaments.pairing.checker import Violation, check_tournament
from tournaments.pairing.simulate import play_random_rounds, random_entrants_tournament
from tournaments.pairing.tests.conftest import EXAMPLES, example_names

W, D, L, U = Outcome.WIN, Outcome.DRAW, Outcome.LOSS, Outcome.PAIRING_BYE
g = RoundResult


def tournament(rows: dict[int, list[RoundResult]], rounds: int = 5, **kw: object) -> Tournament:
    players = tuple(PlayerEntry(p, f"P{p}", results=r) for p, r in rows.items())
    return Tournament(players, rounds, **kw)  # type: ignore[arg-type]


def rules(violations: list[Violation]) -> list[tuple[int, tuple[int, ...], str]]:
    return [(v.round, v.players, v.rule) for v in violations]


def test_rematch_and_forbidden_pair() -> None:
    t = tournament(
        {
            1: [g(2, "w", W), g(2, "b", D), g(3, "w", W)],
            2: [g(1, "b", L), g(1, "w", D), g.bye(U)],
            3: [g.bye(U), g(4, "w", W), g(1, "b", L)],
            4: [g(5, "w", W), g(3, "b", L), g(5, "b", Outcome.FORFEIT_WIN)],
            5: [g(4, "b", L), g.bye(Outcome.ZERO_POINT_BYE), g(4, "w", Outcome.FORFEIT_LOSS)],
        },
        forbidden_pairs={frozenset((1, 3))},
    )
    # Round 2: 1-2 again. Round 3: 1-3 is forbidden; 4-5 again but only by
    # forfeit, which is not a meeting.
    assert rules(check_tournament(t)) == [
        (2, (1, 2), "C1"),
        (3, (1, 3), "forbidden"),
    ]


def test_second_bye_and_bye_after_a_forfeit_win() -> None:
    t = tournament(
        {
            1: [g.bye(U), g(2, "w", W), g.bye(U)],
            2: [g(3, "w", Outcome.FORFEIT_WIN), g(1, "b", L), g.bye(U)],
            3: [g(2, "b", Outcome.FORFEIT_LOSS), g.bye(U), g.bye(Outcome.ZERO_POINT_BYE)],
        }
    )
    found = check_tournament(t)
    assert rules(found) == [(3, (1,), "C2"), (3, (2,), "C2"), (3, (1, 2), "bye")]
    assert str(found[1]) == (
        "round 3: player 2 gets the pairing-allocated bye after a forfeit win (C2)"
    )


def test_same_absolute_colour_preference_and_third_colour_in_a_row() -> None:
    # Before round 3, 1 and 2 had White twice (both must have Black), 3 and 4
    # Black twice (both must have White). They meet anyway, and 1 gets a
    # third White, 4 a third Black.
    t = tournament(
        {
            1: [g(3, "w", W), g(4, "w", W), g(2, "w", D)],
            2: [g(4, "w", D), g(3, "w", D), g(1, "b", D)],
            3: [g(1, "b", L), g(2, "b", D), g(4, "w", D)],
            4: [g(2, "b", D), g(1, "b", L), g(3, "b", D)],
        }
    )
    assert rules(check_tournament(t)) == [
        (3, (1, 2), "C3"),
        (3, (1,), "colour"),
        (3, (3, 4), "C3"),
        (3, (4,), "colour"),
    ]


def test_topscorers_may_break_colour_rules_in_the_last_round() -> None:
    t = tournament(
        {
            1: [g(3, "w", W), g(4, "w", W), g(2, "w", D)],
            2: [g(4, "w", W), g(3, "w", W), g(1, "b", D)],
            3: [g(1, "b", L), g(2, "b", L), g(4, "w", D)],
            4: [g(2, "b", L), g(1, "b", L), g(3, "b", D)],
        },
        rounds=3,
    )
    # Round 3 is the last: 1 and 2 (2 of 2 points) are topscorers, 3 and 4 are not.
    assert rules(check_tournament(t)) == [(3, (3, 4), "C3"), (3, (4,), "colour")]


def test_a_full_point_bye_rules_out_the_pairing_bye_from_2026() -> None:
    t = tournament(
        {
            1: [g.bye(Outcome.FULL_POINT_BYE), g.bye(U)],
            2: [g(3, "w", W), g(3, "b", Outcome.FORFEIT_WIN)],
            3: [g(2, "b", L), g(2, "w", Outcome.FORFEIT_LOSS)],
        }
    )
    assert rules(check_tournament(t)) == [(2, (1,), "C2")]
    assert "after a full-point bye" in str(check_tournament(t)[0])
    assert check_tournament(t, rules="2017") == []


@pytest.mark.parametrize("name", example_names()[::9])
def test_reference_pairings_pass(name: str) -> None:
    t = read_trf((EXAMPLES / name).read_text()).tournament
    assert check_tournament(t) == []


@pytest.mark.parametrize("system", ["dutch", "burstein", "dubov"])
def test_our_pairings_pass(system: str) -> None:
    for seed in range(3):
        t = random_entrants_tournament(11 + 6 * seed, 7, seed=seed)
        t = play_random_rounds(
            t,
            6,
            lambda t: pair_next_round(t, system=system),  # type: ignore[arg-type]
            seed=seed,
            absence_rate=0.05,
            forfeit_rate=0.05,
        )
        assert check_tournament(t) == [], (system, seed)
