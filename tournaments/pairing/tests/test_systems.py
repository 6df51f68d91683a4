"""Burstein and Dubov through our adapter (py4swiss's engines, our corrections)."""

import pytest

from tournaments.pairing import SYSTEMS, Outcome, Tournament, pair_next_round, read_trf
from tournaments.pairing.checker import check_tournament
from tournaments.pairing.model import record_round
from tournaments.pairing.simulate import random_entrants_tournament
from tournaments.pairing.tests.conftest import EXAMPLES, Expected
from tournaments.pairing.tests.test_swiss_corrections import ROUND_SIX, never_shows_up


def example(name: str) -> Tournament:
    return read_trf((EXAMPLES / name).read_text()).tournament


def test_burstein_seeding_rounds_are_dutch(expected: Expected) -> None:
    # C.04.4.2 1.6: min(5 // 2, 4) = 2 seeding rounds in a five-round event.
    t = example("exH00-r2.trf")
    assert pair_next_round(t, system="burstein") == pair_next_round(t, system="dutch")


def test_each_system_pairs_its_own_way_after_round_two(expected: Expected) -> None:
    t = example("exH00-r3.trf")
    pairings = {
        system: [list(p) for p in sorted(pair_next_round(t, system=system).pairs())]
        for system in SYSTEMS
    }
    assert pairings["dutch"] == expected["exH00-r3.trf"]["master"]
    assert len({str(p) for p in pairings.values()}) == 3
    for pairing in pairings.values():
        assert sorted(p for pair in pairing for p in pair) == list(range(1, 71))


@pytest.mark.parametrize("system", ["burstein", "dubov"])
def test_the_corrections_apply_to_every_system(system: str) -> None:
    # The effective pairing number (4 has White against 5) ...
    assert (4, 5) in pair_next_round(never_shows_up(), system=system).pairs()  # type: ignore[arg-type]
    # ... and the colour preference (W W W B B asks for White).
    assert (1, 7) in pair_next_round(read_trf(ROUND_SIX).tournament, system=system).pairs()  # type: ignore[arg-type]


@pytest.mark.parametrize("system", ["burstein", "dubov"])
def test_a_whole_event_respects_the_absolute_criteria(system: str) -> None:
    t = random_entrants_tournament(15, 7, seed=8)
    for _ in range(7):
        pairing = pair_next_round(t, system=system)  # type: ignore[arg-type]
        outcomes = {b.white: Outcome.WIN if b.white % 3 else Outcome.DRAW for b in pairing.boards}
        t = record_round(t, pairing, outcomes)
    assert t.rounds_played == 7
    assert check_tournament(t) == []


def test_an_unknown_system_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown pairing system 'swiss'"):
        pair_next_round(never_shows_up(), system="swiss")  # type: ignore[arg-type]
