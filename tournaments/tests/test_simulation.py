"""simulate_tournament: full runs, and its TRF reproduces every round it paired."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from tournaments import pairing, selectors
from tournaments.management.commands.simulate_tournament import simulate
from tournaments.models import Tournament

from .helpers import pairs

pytestmark = pytest.mark.django_db

BASE_DIR = Path(__file__).resolve().parents[2]


def truncated(document: pairing.TrfDocument, rounds: int) -> pairing.Tournament:
    """The tournament as it stood before round ``rounds + 1`` was paired."""
    t = document.tournament
    players = [
        pairing.PlayerEntry(p.id, p.name, p.rating, p.results[:rounds], p.withdrawn)
        for p in t.players
    ]
    return pairing.Tournament(
        players=players, total_rounds=t.total_rounds, first_color=t.first_color,
        bye_points=t.bye_points,
    )  # fmt: skip


def test_swiss_trf_replays_every_round(tmp_path) -> None:
    out = tmp_path / "swiss.trf"
    call_command(
        "simulate_tournament", "--format", "swiss", "--players", "11", "--rounds", "5",
        "--seed", "3", "--forfeit-rate", "0.1", "--bye-points", "0.5", "--trf", str(out),
    )  # fmt: skip
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.FINISHED
    document = pairing.read_trf(out.read_text(encoding="utf-8"))
    assert document.tournament.rounds_played == 5
    assert document.tournament.bye_points == 1
    for k in range(1, 6):
        replayed = pairing.pair_next_round(truncated(document, k - 1)).pairs()
        assert replayed == pairs(tournament, k), f"round {k}"
        # The service's own truncated export pairs the same round too.
        partial = pairing.read_trf(selectors.trf(tournament, rounds=k - 1)).tournament
        assert pairing.pair_next_round(partial).pairs() == replayed
    # The command line answers like bbpPairings on the file before the last round.
    before_last = tmp_path / "r5.trf"
    before_last.write_text(selectors.trf(tournament, rounds=4), encoding="utf-8")
    answer = subprocess.run(
        [sys.executable, "-m", "tournaments.pairing", str(before_last)],
        cwd=BASE_DIR, capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert answer.returncode == 0, answer.stderr
    lines = answer.stdout.split()
    count = int(lines[0])
    printed = [(int(a), int(b)) for a, b in zip(lines[1::2], lines[2::2], strict=True)]
    assert count == len(printed) and printed == pairs(tournament, 5)


def test_swiss_final_standings_points_add_up() -> None:
    tournament = simulate(fmt="swiss", players=9, rounds=4, rng=random.Random(7))
    table = selectors.standings(tournament)
    # 9 players: 4 games and one bye (1 point) per round.
    assert sum(row.points for row in table.rows) == 4 * (4 * 2 + 2)
    assert not table.provisional


@pytest.mark.parametrize("fmt", ["roundrobin", "double"])
def test_round_robins_play_every_pairing(fmt) -> None:
    tournament = simulate(fmt=fmt, players=5, rounds=None, rng=random.Random(4), all_at_once=True)
    assert tournament.status == Tournament.Status.FINISHED
    cycles = 2 if fmt == "double" else 1
    assert tournament.rounds == 5 * cycles
    met: dict[frozenset[int], int] = {}
    for number in range(1, tournament.rounds + 1):
        for white, black in pairs(tournament, number):
            if black:
                key = frozenset((white, black))
                met[key] = met.get(key, 0) + 1
    assert len(met) == 10 and set(met.values()) == {cycles}


def test_bad_arguments_are_refused() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--rounds is for Swiss"):
        call_command("simulate_tournament", "--format", "roundrobin", "--rounds", "3")
    with pytest.raises(CommandError, match="--players"):
        call_command("simulate_tournament", "--players", "1")
