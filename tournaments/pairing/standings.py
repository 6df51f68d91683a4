"""Standings and tie-breaks (FIDE C.07, as revised in 2023), as pure functions.

Tie-breaks, by their FIDE acronyms:

* ``BH`` Buchholz: sum of the opponents' scores. ``BH-C1`` / ``BH-C2``:
  minus the lowest one / two contributions; ``BH-M1`` (Median-1): minus
  the highest and the lowest.
* ``SB`` Sonneborn-Berger: sum of each round's opponent score x the points
  scored in that round.
* ``DE`` direct encounter among the players still tied (see below).
* ``PS`` progressive score: sum of the player's score after each round.
* ``WIN`` rounds won, played or not (wins, forfeit wins, full-point and
  pairing byes worth a full point); ``WON`` games won over the board.
* ``BPG`` games played with Black; ``BWG`` games won with Black.
* ``ARO`` average rating of the opponents met over the board (unrated
  opponents left out), rounded to the nearest whole number (halves up).
* ``KS`` Koya (round robins): points scored against the players who scored
  at least half of the maximum possible score.

Unplayed rounds (byes, forfeits, absences), by the 2023 rules:

* the player's **own** unplayed round counts, in BH-type tie-breaks and SB,
  as a game against a *virtual opponent* whose score is the player's own
  final score;
* an **opponent's** score counts as scored (forfeit wins and byes with
  their points), except the rounds after that opponent withdrew, which
  count as draws;
* cuts (C1, C2, M1) remove first the contributions of the player's
  *voluntary unplayed rounds*: requested half-point and zero-point byes and
  forfeit losses (so also the rounds after the player's own withdrawal),
  then the lowest ones.

Direct encounter: among the players tied on points and on every earlier
tie-break, if all of them have met (a game or a forfeit between them), each
gets the points scored in those encounters. If not all have met, a player is
ranked first of the group when the points scored in encounters within it
exceed what any other could reach (their points plus a win for each
encounter they miss); that player gets those points, and the procedure goes
on with the others. When nobody can be separated this way, the players left
get 0 (still tied). Values therefore only order players inside the same
tied group.

Withdrawals: by default a player marked ``withdrawn`` withdrew after their
last round that is not a zero-point bye or a forfeit loss; a ``withdrawals``
mapping (player id -> number of rounds before withdrawing) overrides it.
TRF files do not mark withdrawals: :func:`trailing_absences` infers them for
the command line.

Units: points, the BH family, DE, PS and KS are half-points; SB is
quarter-points (half-points x half-points); the others are counts (ARO a
rating). :data:`TIEBREAK_SCALE` says how many units make one point and
:func:`format_tiebreak` formats them as decimals.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from tournaments.pairing.model import (
    DRAW_POINTS,
    WIN_POINTS,
    Outcome,
    RoundResult,
    Tournament,
    format_points,
)

TIEBREAK_NAMES = (
    "BH",
    "BH-C1",
    "BH-C2",
    "BH-M1",
    "SB",
    "DE",
    "PS",
    "WIN",
    "WON",
    "BPG",
    "BWG",
    "ARO",
    "KS",
)
SWISS_TIEBREAKS = ("BH-C1", "BH", "DE")
ROUND_ROBIN_TIEBREAKS = ("DE", "WIN", "SB")
#: How many units of each tie-break value make one point (1: a count or a rating).
TIEBREAK_SCALE = {
    "BH": 2,
    "BH-C1": 2,
    "BH-C2": 2,
    "BH-M1": 2,
    "SB": 4,
    "DE": 2,
    "PS": 2,
    "WIN": 1,
    "WON": 1,
    "BPG": 1,
    "BWG": 1,
    "ARO": 1,
    "KS": 2,
}
_WON_OVER_THE_BOARD = frozenset({Outcome.WIN, Outcome.WIN_UNRATED})
#: Unplayed rounds a player chose (C.07 2023): cut first.
VOLUNTARY_UNPLAYED = frozenset(
    {Outcome.HALF_POINT_BYE, Outcome.ZERO_POINT_BYE, Outcome.FORFEIT_LOSS}
)
# What a withdrawn player's rounds after the withdrawal look like.
_AFTER_WITHDRAWAL = frozenset({Outcome.ZERO_POINT_BYE, Outcome.FORFEIT_LOSS})
# (lowest cut, highest cut) of each Buchholz variant.
_BUCHHOLZ_CUTS = {"BH": (0, 0), "BH-C1": (1, 0), "BH-C2": (2, 0), "BH-M1": (1, 1)}


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings; ``tiebreaks`` follow the requested order."""

    rank: int
    player_id: int
    name: str
    points: int
    tiebreaks: tuple[int, ...]


def format_tiebreak(name: str, value: int) -> str:
    """Display a tie-break value as a decimal: ``format_tiebreak("SB", 9)`` is ``'2.25'``.

    >>> format_tiebreak("BH", 9), format_tiebreak("SB", 9), format_tiebreak("SB", 10)
    ('4.5', '2.25', '2.5')
    >>> format_tiebreak("ARO", 1867), format_tiebreak("PS", 17)
    ('1867', '8.5')
    """
    scale = TIEBREAK_SCALE[name]
    if scale == 2:
        return format_points(value, ascii=True)
    if scale == 4:
        sign = "-" if value < 0 else ""
        whole, quarters = divmod(abs(value), 4)
        return f"{sign}{whole}" + ("", ".25", ".5", ".75")[quarters]
    return str(value)


def withdrawal_rounds(tournament: Tournament) -> dict[int, int]:
    """Rounds each ``withdrawn`` player took part in before withdrawing.

    The rounds after the withdrawal are the trailing zero-point byes and
    forfeit losses (what the platform records once a player has left).
    """
    result = {}
    for player in tournament.players:
        if player.withdrawn:
            result[player.id] = _before_trailing(player.results, _AFTER_WITHDRAWAL)
    return result


def trailing_absences(tournament: Tournament) -> dict[int, int]:
    """Withdrawals inferred from the results alone (TRF has no withdrawal mark).

    A player whose entries from some round to the last one are all
    zero-point byes is taken to have withdrawn before that round:
    ``{player_id: rounds before withdrawing}``.
    """
    result = {}
    for player in tournament.players:
        played = _before_trailing(player.results, {Outcome.ZERO_POINT_BYE})
        if played < len(player.results):
            result[player.id] = played
    return result


def _before_trailing(results: Sequence[RoundResult], kinds: Collection[Outcome]) -> int:
    """How many results come before the trailing run of ``kinds``."""
    count = len(results)
    while count and results[count - 1].outcome in kinds:
        count -= 1
    return count


@dataclass(frozen=True, slots=True)
class _Table:
    """Per-player, per-round facts every tie-break needs, computed once."""

    rounds: int
    points: dict[int, int]
    round_points: dict[int, list[int]]
    contributions: dict[int, list[int]]  # BH contribution of each round
    voluntary: dict[int, list[bool]]  # voluntary unplayed round?


def _table(tournament: Tournament, rounds: int, withdrawals: Mapping[int, int]) -> _Table:
    bye_points = tournament.bye_points
    round_points: dict[int, list[int]] = {}
    adjusted: dict[int, int] = {}
    for player in tournament.players:
        scored = [r.outcome.points(bye_points) for r in player.results[:rounds]]
        round_points[player.id] = scored
        left_after = withdrawals.get(player.id, rounds)
        adjusted[player.id] = sum(
            points if index < left_after else DRAW_POINTS for index, points in enumerate(scored)
        )
    points = {pid: sum(scored) for pid, scored in round_points.items()}
    contributions: dict[int, list[int]] = {}
    voluntary: dict[int, list[bool]] = {}
    for player in tournament.players:
        row = []
        for result in player.results[:rounds]:
            if result.is_played:
                assert result.opponent is not None
                row.append(adjusted[result.opponent])
            else:
                # The virtual opponent has the player's own final score.
                row.append(points[player.id])
        contributions[player.id] = row
        voluntary[player.id] = [r.outcome in VOLUNTARY_UNPLAYED for r in player.results[:rounds]]
    return _Table(rounds, points, round_points, contributions, voluntary)


def _buchholz(table: _Table, player_id: int, low: int, high: int) -> int:
    contributions = table.contributions[player_id]
    voluntary = table.voluntary[player_id]
    # Voluntary unplayed rounds go first, then the lowest contributions.
    order = sorted(range(len(contributions)), key=lambda i: (not voluntary[i], contributions[i]))
    kept = sorted(contributions[i] for i in order[low:])
    if high:
        kept = kept[: max(len(kept) - high, 0)]
    return sum(kept)


def _simple_tiebreak(name: str, tournament: Tournament, table: _Table, player_id: int) -> int:
    results = tournament.player(player_id).results[: table.rounds]
    scored = table.round_points[player_id]
    if name in _BUCHHOLZ_CUTS:
        low, high = _BUCHHOLZ_CUTS[name]
        return _buchholz(table, player_id, low, high)
    if name == "SB":
        contributions = table.contributions[player_id]
        return sum(c * s for c, s in zip(contributions, scored, strict=True))
    if name == "PS":
        total = running = 0
        for points in scored:
            running += points
            total += running
        return total
    if name == "WIN":
        return sum(1 for s in scored if s == WIN_POINTS)
    if name == "WON":
        return sum(1 for r in results if r.outcome in _WON_OVER_THE_BOARD)
    if name == "BPG":
        return sum(1 for r in results if r.is_played and r.color == "b")
    if name == "BWG":
        return sum(1 for r in results if r.outcome in _WON_OVER_THE_BOARD and r.color == "b")
    if name == "ARO":
        ratings = [
            tournament.player(r.opponent).rating
            for r in results
            if r.is_played and r.opponent is not None
        ]
        ratings = [rating for rating in ratings if rating > 0]
        if not ratings:
            return 0
        return (2 * sum(ratings) + len(ratings)) // (2 * len(ratings))
    if name == "KS":
        # At least half the maximum: points >= rounds (in half-points).
        return sum(
            points
            for r, points in zip(results, scored, strict=True)
            if r.opponent is not None and table.points[r.opponent] >= table.rounds
        )
    raise AssertionError(name)


def _encounters(
    tournament: Tournament, table: _Table, group: Sequence[int]
) -> tuple[dict[int, dict[int, int]], set[frozenset[int]]]:
    """Points each player scored against each other member, and the pairs that met."""
    members = set(group)
    scored: dict[int, dict[int, int]] = {player_id: {} for player_id in group}
    met: set[frozenset[int]] = set()
    for player_id in group:
        results = tournament.player(player_id).results[: table.rounds]
        for result, points in zip(results, table.round_points[player_id], strict=True):
            if result.opponent in members:
                row = scored[player_id]
                row[result.opponent] = row.get(result.opponent, 0) + points
                met.add(frozenset((player_id, result.opponent)))
    return scored, met


def _direct_encounter(
    tournament: Tournament, table: _Table, group: Sequence[int]
) -> dict[int, int]:
    """DE inside one group of tied players (the procedure in the module docstring)."""
    scored, met = _encounters(tournament, table, group)
    values = dict.fromkeys(group, 0)
    left = sorted(group)
    while len(left) > 1:
        points = {p: sum(v for q, v in scored[p].items() if q in left) for p in left}
        missing = {p: sum(1 for q in left if q != p and frozenset((p, q)) not in met) for p in left}
        if not any(missing.values()):
            values.update(points)
            break
        leader = next(
            (
                p
                for p in left
                if all(points[p] > points[q] + WIN_POINTS * missing[q] for q in left if q != p)
            ),
            None,
        )
        if leader is None:
            break  # the players left stay tied (0)
        values[leader] = points[leader]
        left.remove(leader)
    return values


def tiebreak_values(
    tournament: Tournament,
    tiebreaks: Sequence[str] = SWISS_TIEBREAKS,
    *,
    rounds: int | None = None,
    withdrawals: Mapping[int, int] | None = None,
) -> dict[int, tuple[int, ...]]:
    """Each player's tie-break values, in the order of ``tiebreaks``.

    ``rounds`` limits the computation to the first rounds (standings after
    round k); by default all completed rounds count. ``withdrawals`` maps a
    player to the number of rounds played before withdrawing (default:
    :func:`withdrawal_rounds`). Raises
    :class:`~tournaments.pairing.model.TournamentError` for inconsistent
    data and ``ValueError`` for an unknown tie-break.
    """
    tournament.validate()
    unknown = [name for name in tiebreaks if name not in TIEBREAK_SCALE]
    if unknown:
        raise ValueError(f"unknown tie-break(s) {unknown}; known: {', '.join(TIEBREAK_NAMES)}")
    completed = tournament.rounds_played if rounds is None else rounds
    if not 0 <= completed <= tournament.rounds_played:
        raise ValueError(f"rounds must be 0..{tournament.rounds_played}")
    if withdrawals is None:
        withdrawals = withdrawal_rounds(tournament)
    table = _table(tournament, completed, withdrawals)
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
    withdrawals: Mapping[int, int] | None = None,
) -> list[Standing]:
    """Players ranked by points, then each tie-break in order, then starting rank.

    Every tie-break is "higher is better". Players equal on everything keep
    their initial order (the lower starting rank first). Arguments as for
    :func:`tiebreak_values`.
    """
    values = tiebreak_values(tournament, tiebreaks, rounds=rounds, withdrawals=withdrawals)
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
