"""Standings and tie-breaks (FIDE C.07 definitions), as pure functions.

Tie-breaks, by their FIDE acronyms:

* ``BH`` Buchholz: sum of the opponents' scores.
* ``BH-C1`` Buchholz Cut-1: Buchholz minus its lowest contribution.
* ``SB`` Sonneborn-Berger: sum of opponent's score x points scored against them.
* ``DE`` direct encounter: points scored against the other players still tied
  when DE is applied, if they have all played each other (else 0 for all).
* ``WIN`` rounds won, played or not (wins, forfeit wins, full-point and
  pairing byes worth a full point); ``WON`` games won over the board.
* ``BPG`` games played with Black; ``BWG`` games won with Black.

Unplayed rounds (byes, forfeits, absences), as FIDE prescribes for Buchholz
and Sonneborn-Berger (Handbook 2009 rules, the ones REFERENCE.md summarises):

* a player's own unplayed round counts as a game against a *virtual
  opponent* who had the player's score before that round, got the opposite
  result in it and drew every later round:
  ``Svon = SPR + (1 - SfPR) + 0.5 * (n - R)`` (n completed rounds, R the round);
* an opponent's unplayed rounds count as draws in the opponent's score used
  for my Buchholz / Sonneborn-Berger (the opponent's "adjusted" score).

FIDE's tie-break regulations of 2023 changed how unplayed rounds are
evaluated; we implement the virtual-opponent rule above because the
platform's reference (REFERENCE.md) prescribes it. The rule lives in
``_table`` only, so a switch would be local.

Units: points, BH, BH-C1 and DE are half-points; SB is quarter-points
(half-points x half-points); the others are counts. :data:`TIEBREAK_SCALE`
says how many units make one point and :func:`format_tiebreak` formats them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.pairing.model import (
    DRAW_POINTS,
    WIN_POINTS,
    Outcome,
    Tournament,
    format_points,
)

TIEBREAK_NAMES = ("BH", "BH-C1", "SB", "DE", "WIN", "WON", "BPG", "BWG")
SWISS_TIEBREAKS = ("BH-C1", "BH", "DE")
ROUND_ROBIN_TIEBREAKS = ("DE", "WIN", "SB")
#: How many units of each tie-break value make one point (1: a count).
TIEBREAK_SCALE = {
    "BH": 2,
    "BH-C1": 2,
    "SB": 4,
    "DE": 2,
    "WIN": 1,
    "WON": 1,
    "BPG": 1,
    "BWG": 1,
}
_WON_OVER_THE_BOARD = frozenset({Outcome.WIN, Outcome.WIN_UNRATED})


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings; ``tiebreaks`` follow the requested order."""

    rank: int
    player_id: int
    name: str
    points: int
    tiebreaks: tuple[int, ...]


def format_tiebreak(name: str, value: int) -> str:
    """Display a tie-break value: ``format_tiebreak("SB", 9)`` is ``'2.25'``.

    >>> format_tiebreak("BH", 9), format_tiebreak("SB", 9), format_tiebreak("SB", 10)
    ('4.5', '2.25', '2.5')
    """
    scale = TIEBREAK_SCALE[name]
    if scale == 2:
        return format_points(value, ascii=True)
    if scale == 4:
        whole, quarters = divmod(value, 4)
        return f"{whole}" + ("", ".25", ".5", ".75")[quarters]
    return str(value)


@dataclass(frozen=True, slots=True)
class _Table:
    """Per-player, per-round facts every tie-break needs, computed once."""

    rounds: int
    points: dict[int, int]
    round_points: dict[int, list[int]]
    contributions: dict[int, list[int]]  # BH contribution of each round


def _table(tournament: Tournament, rounds: int) -> _Table:
    bye_points = tournament.bye_points
    round_points: dict[int, list[int]] = {}
    adjusted: dict[int, int] = {}
    for player in tournament.players:
        scored = [r.outcome.points(bye_points) for r in player.results[:rounds]]
        round_points[player.id] = scored
        adjusted[player.id] = sum(
            points if result.is_played else DRAW_POINTS
            for points, result in zip(scored, player.results, strict=False)
        )
    contributions: dict[int, list[int]] = {}
    for player in tournament.players:
        scored = round_points[player.id]
        before = 0
        row = []
        for index, result in enumerate(player.results[:rounds]):
            if result.is_played:
                assert result.opponent is not None
                row.append(adjusted[result.opponent])
            else:
                # Virtual opponent, in half-points:
                # score before the round + opposite result + a draw per later round.
                row.append(before + (WIN_POINTS - scored[index]) + (rounds - index - 1))
            before += scored[index]
        contributions[player.id] = row
    return _Table(
        rounds,
        {pid: sum(scored) for pid, scored in round_points.items()},
        round_points,
        contributions,
    )


def _simple_tiebreak(name: str, tournament: Tournament, table: _Table, player_id: int) -> int:
    contributions = table.contributions[player_id]
    results = tournament.player(player_id).results[: table.rounds]
    if name == "BH":
        return sum(contributions)
    if name == "BH-C1":
        return sum(contributions) - min(contributions, default=0)
    if name == "SB":
        scored = table.round_points[player_id]
        return sum(c * s for c, s in zip(contributions, scored, strict=True))
    if name == "WIN":
        return sum(1 for s in table.round_points[player_id] if s == WIN_POINTS)
    if name == "WON":
        return sum(1 for r in results if r.outcome in _WON_OVER_THE_BOARD)
    if name == "BPG":
        return sum(1 for r in results if r.is_played and r.color == "b")
    if name == "BWG":
        return sum(1 for r in results if r.outcome in _WON_OVER_THE_BOARD and r.color == "b")
    raise AssertionError(name)


def _direct_encounter(
    tournament: Tournament, table: _Table, group: Sequence[int]
) -> dict[int, int]:
    """DE inside one group of tied players: their points against each other."""
    if len(group) < 2:
        return {player_id: 0 for player_id in group}
    members = set(group)
    scored = {player_id: 0 for player_id in group}
    met: set[frozenset[int]] = set()
    for player_id in group:
        results = tournament.player(player_id).results[: table.rounds]
        for result, points in zip(results, table.round_points[player_id], strict=True):
            if result.is_played and result.opponent in members:
                scored[player_id] += points
                met.add(frozenset((player_id, result.opponent)))
    everyone_met = len(met) == len(group) * (len(group) - 1) // 2
    return scored if everyone_met else {player_id: 0 for player_id in group}


def tiebreak_values(
    tournament: Tournament,
    tiebreaks: Sequence[str] = SWISS_TIEBREAKS,
    *,
    rounds: int | None = None,
) -> dict[int, tuple[int, ...]]:
    """Each player's tie-break values, in the order of ``tiebreaks``.

    ``rounds`` limits the computation to the first rounds (standings after
    round k); by default all completed rounds count. Raises
    :class:`~tournaments.pairing.model.TournamentError` for inconsistent data.
    """
    tournament.validate()
    unknown = [name for name in tiebreaks if name not in TIEBREAK_SCALE]
    if unknown:
        raise ValueError(f"unknown tie-break(s) {unknown}; known: {TIEBREAK_NAMES}")
    completed = tournament.rounds_played if rounds is None else rounds
    if not 0 <= completed <= tournament.rounds_played:
        raise ValueError(f"rounds must be 0..{tournament.rounds_played}")
    table = _table(tournament, completed)
    values: dict[int, list[int]] = {p.id: [] for p in tournament.players}
    for name in tiebreaks:
        if name != "DE":
            for player_id, row in values.items():
                row.append(_simple_tiebreak(name, tournament, table, player_id))
            continue
        # DE only separates players who are still tied at this point of the
        # order: same points and same values for every earlier tie-break.
        groups: dict[tuple[int, ...], list[int]] = {}
        for player_id, row in values.items():
            groups.setdefault((table.points[player_id], *row), []).append(player_id)
        for group in groups.values():
            for player_id, value in _direct_encounter(tournament, table, group).items():
                values[player_id].append(value)
    return {player_id: tuple(row) for player_id, row in values.items()}


def standings(
    tournament: Tournament,
    tiebreaks: Sequence[str] = SWISS_TIEBREAKS,
    *,
    rounds: int | None = None,
) -> list[Standing]:
    """Players ranked by points, then each tie-break in order, then starting rank.

    Every tie-break is "higher is better". Players equal on everything keep
    their initial order (the lower starting rank first).
    """
    values = tiebreak_values(tournament, tiebreaks, rounds=rounds)
    completed = tournament.rounds_played if rounds is None else rounds
    bye_points = tournament.bye_points
    points = {
        p.id: sum(r.outcome.points(bye_points) for r in p.results[:completed])
        for p in tournament.players
    }
    order = sorted(
        tournament.players,
        key=lambda p: (-points[p.id], *(-v for v in values[p.id]), p.id),
    )
    return [
        Standing(rank, player.id, player.name, points[player.id], values[player.id])
        for rank, player in enumerate(order, start=1)
    ]
