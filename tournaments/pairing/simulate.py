"""Random tournaments for tests and benchmarks (seeded, reproducible)."""

from __future__ import annotations

import random
from collections.abc import Callable

from tournaments.pairing.model import (
    Board,
    Outcome,
    RoundPairing,
    Tournament,
    record_round,
)
from tournaments.pairing.ranking import assign_starting_ranks

Pairer = Callable[[Tournament], RoundPairing]

_GAME_OUTCOMES = (Outcome.WIN, Outcome.DRAW, Outcome.LOSS)


def random_entrants_tournament(
    players: int, total_rounds: int, *, seed: int, first_color: str = "w", bye_points: int = 2
) -> Tournament:
    """A tournament with ``players`` random-rated entrants and no rounds played."""
    rng = random.Random(seed)
    entrants = [(f"Player {i:04d}", rng.randint(1000, 2800)) for i in range(players)]
    return Tournament(
        tuple(assign_starting_ranks(entrants)),
        total_rounds,
        "w" if first_color == "w" else "b",
        bye_points=bye_points,
    )


def play_random_rounds(
    tournament: Tournament,
    rounds: int,
    pairer: Pairer,
    *,
    seed: int,
    absence_rate: float = 0.0,
    forfeit_rate: float = 0.0,
    withdraw_rate: float = 0.0,
) -> Tournament:
    """Pair and play ``rounds`` rounds with random results.

    Stronger players win more often (so score groups look realistic);
    ``absence_rate`` gives players H/Z requests for a round,
    ``forfeit_rate`` turns games into forfeits, ``withdraw_rate`` withdraws
    players for good.
    """
    rng = random.Random(seed)
    for _ in range(rounds):
        requested = {}
        players = []
        for player in tournament.players:
            if not player.withdrawn and rng.random() < withdraw_rate:
                player = type(player)(player.id, player.name, player.rating, player.results, True)
            elif not player.withdrawn and rng.random() < absence_rate:
                requested[player.id] = rng.choice((Outcome.HALF_POINT_BYE, Outcome.ZERO_POINT_BYE))
            players.append(player)
        tournament = Tournament(
            tuple(players),
            tournament.total_rounds,
            tournament.first_color,
            tournament.forbidden_pairs,
            tournament.bye_points,
            requested,
            tournament.accelerations,
        )
        pairing = pairer(tournament)
        outcomes = {}
        for board in pairing.boards:
            if board.black is None:
                continue
            if rng.random() < forfeit_rate:
                outcomes[board.white] = rng.choice((Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS))
                continue
            edge = (
                tournament.player(board.white).rating - tournament.player(board.black).rating
            ) / 800
            weights = (max(0.05, 0.4 + edge), 0.25, max(0.05, 0.35 - edge))
            outcomes[board.white] = rng.choices(_GAME_OUTCOMES, weights)[0]
        tournament = record_round(tournament, pairing, outcomes)
    return tournament


def quick_swiss_pairer(tournament: Tournament) -> RoundPairing:
    """A fast, approximate Swiss pairer to *set up* large test tournaments.

    Not the Dutch system: players sorted by score then rank are paired
    greedily with the next one they have not met, colours going to whoever
    had fewer Whites. Good enough to produce realistic score groups quickly
    (benchmarks time the real pairer on the result).
    """
    points = tournament.points()
    absent = tournament.absent_next_round()
    waiting = sorted(
        (p.id for p in tournament.players if p.id not in absent),
        key=lambda pid: (-points[pid], pid),
    )
    met = {p.id: {r.opponent for r in p.results} for p in tournament.players}
    whites = {
        p.id: sum(1 for r in p.results if r.color == "w")
        - sum(1 for r in p.results if r.color == "b")
        for p in tournament.players
    }
    boards = []
    bye = None
    if len(waiting) % 2:
        bye = next(
            (
                pid
                for pid in reversed(waiting)
                if not any(r.outcome is Outcome.PAIRING_BYE for r in tournament.player(pid).results)
            ),
            waiting[-1],
        )
        waiting.remove(bye)
    while waiting:
        first = waiting.pop(0)
        partner = next((pid for pid in waiting if pid not in met[first]), waiting[0])
        waiting.remove(partner)
        white, black = (first, partner) if whites[first] <= whites[partner] else (partner, first)
        boards.append(Board(white, black))
    if bye is not None:
        boards.append(Board(bye, None))
    return RoundPairing(tournament.rounds_played + 1, tuple(boards))
