"""Timing of the tournaments app on a real database (not a test).

Run from the repository root, on PostgreSQL for meaningful figures::

    DEBUG=1 DATABASE_URL=postgres://postgres@127.0.0.1:5432/adaptoid_tour_dev \\
        python bench/tournaments.py

(the database must be migrated; every row the benchmark writes is rolled back).

* standings with six tie-breaks for 1000 players after 9 rounds, read from the
  database rows (participants and boards) — target < 1 s, constant number of queries;
* pairing round 5 of a 100- and a 500-player Swiss through ``services.pair_round``
  (snapshot from the database → FIDE Dutch via py4swiss → boards and games
  created through ``games.services.start_game``).

Rounds before the measured one are generated with the pairing package's random
tournament helpers and stored as rows in bulk, so setting up is fast.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from accounts.models import Profile
from tournaments import pairing, selectors, services
from tournaments.models import Pairing, Participant, Round, Tournament
from tournaments.pairing.simulate import (
    play_random_rounds,
    quick_swiss_pairer,
    random_entrants_tournament,
)

User = get_user_model()
TIEBREAKS = ["BH-C1", "BH", "SB", "DE", "WIN", "BPG"]
STANDINGS_TARGET = 1.0
PAIRING_TARGETS = {100: 2.0, 500: 15.0}


class Rollback(Exception):
    """Raised to undo everything a benchmark wrote."""


def store(state: pairing.Tournament, *, tag: str, tiebreaks: list[str]) -> Tournament:
    """Write a pure tournament (players, rounds played) as rows, in bulk."""
    organiser = User.objects.create_user(username=f"bench-{tag}-organiser", is_staff=True)
    tournament = Tournament.objects.create(
        name=f"Bench {tag}",
        organiser=organiser,
        format=Tournament.Format.SWISS,
        rounds=state.total_rounds,
        rated=False,
        tiebreaks=",".join(tiebreaks),
        status=Tournament.Status.RUNNING,
        current_round=state.rounds_played,
    )
    users = User.objects.bulk_create(
        [User(username=f"bench-{tag}-{p.id:04d}") for p in state.players]
    )
    Profile.objects.bulk_create([Profile(user=u, is_bot=True) for u in users])
    participants = Participant.objects.bulk_create(
        [
            Participant(
                tournament=tournament,
                user=user,
                seed=p.id,
                rating=p.rating,
                withdrawn_after_round=0 if p.withdrawn else None,
            )
            for user, p in zip(users, state.players, strict=True)
        ]
    )
    by_seed = {p.seed: p for p in participants}
    rounds = Round.objects.bulk_create(
        [Round(tournament=tournament, number=n) for n in range(1, state.rounds_played + 1)]
    )
    rows: list[Pairing] = []
    for index, round_ in enumerate(rounds):
        board = 0
        for player in state.players:
            result = player.results[index]
            if result.opponent is None:
                if result.outcome == pairing.Outcome.ZERO_POINT_BYE:
                    continue  # absent: no board
                board += 1
                rows.append(
                    Pairing(
                        round=round_,
                        board=board,
                        white=by_seed[player.id],
                        white_outcome=result.outcome,
                    )
                )
                continue
            # Each game once: from White's side (or the lower id for a colourless forfeit).
            if result.color == "b" or (result.color is None and player.id > result.opponent):
                continue
            other = state.player(result.opponent).results[index]
            board += 1
            rows.append(
                Pairing(
                    round=round_,
                    board=board,
                    white=by_seed[player.id],
                    black=by_seed[result.opponent],
                    white_outcome=result.outcome,
                    black_outcome=other.outcome,
                )
            )
    Pairing.objects.bulk_create(rows, batch_size=2000)
    return tournament


def bench_standings(players: int) -> tuple[float, int]:
    state = random_entrants_tournament(players, 9, seed=7)
    state = play_random_rounds(
        state, 9, quick_swiss_pairer, seed=7, absence_rate=0.02, forfeit_rate=0.01
    )
    try:
        with transaction.atomic():
            tournament = store(state, tag=f"s{players}", tiebreaks=TIEBREAKS)
            tournament = Tournament.objects.get(pk=tournament.pk)
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                table = selectors.standings(tournament)
                elapsed = time.perf_counter() - started
            assert len(table.rows) == players and not table.provisional
            # Same answer as the pure package on the same data.
            expected = pairing.standings(state, TIEBREAKS)
            assert [r.participant.seed for r in table.rows] == [s.player_id for s in expected]
            raise Rollback
    except Rollback:
        pass
    return elapsed, len(queries)


def bench_pairing(players: int) -> tuple[float, float, int]:
    state = random_entrants_tournament(players, 9, seed=players)
    state = play_random_rounds(
        state, 4, quick_swiss_pairer, seed=players, absence_rate=0.02, forfeit_rate=0.01
    )
    try:
        with transaction.atomic():
            tournament = store(state, tag=f"p{players}", tiebreaks=list(pairing.SWISS_TIEBREAKS))
            engine_started = time.perf_counter()
            pairing.pair_next_round(selectors.snapshot(tournament, next_round=True))
            engine = time.perf_counter() - engine_started
            started = time.perf_counter()
            round_ = services.pair_round(tournament_id=tournament.pk, round_number=5)
            elapsed = time.perf_counter() - started
            assert round_ is not None
            boards = round_.pairings.count()
            raise Rollback
    except Rollback:
        pass
    return elapsed, engine, boards


def main() -> int:
    print(f"database: {connection.vendor}; {pairing.RULES_VERSION}")
    ok = True
    elapsed, queries = bench_standings(1000)
    ok &= elapsed < STANDINGS_TARGET
    print(
        f"standings + {len(TIEBREAKS)} tie-breaks from DB rows, 1000 players, 9 rounds: "
        f"{elapsed:6.3f} s, {queries} queries (target < {STANDINGS_TARGET:g} s)"
    )
    for players, target in PAIRING_TARGETS.items():
        elapsed, engine, boards = bench_pairing(players)
        ok &= elapsed < target
        print(
            f"pair_round 5 through the service, {players:4d} players: {elapsed:6.3f} s "
            f"(Dutch engine {engine:.3f} s; {boards} boards and their games; "
            f"target < {target:g} s)"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
