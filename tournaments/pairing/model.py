"""Plain value types shared by pairing, standings and TRF.

Everything here is small, frozen and hashable. Players are identified by their
starting rank (1-based), exactly as in TRF-16 and in the Berger tables.

Points are integer *half-points* throughout (a win is 2, a draw 1): floats
only appear when a number is formatted for people (:func:`format_points`).
What a player scores in a round is decided by that player's own
:class:`Outcome`, never by a game-level result, so forfeits, byes and absences
need no special cases in the score arithmetic.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

Color = Literal["w", "b"]
"""The colour a player had in a round: ``"w"`` (White) or ``"b"`` (Black)."""

WIN_POINTS = 2
DRAW_POINTS = 1
LOSS_POINTS = 0


class TournamentError(ValueError):
    """A tournament whose data contradicts itself (e.g. a game recorded on one side only)."""


class Outcome(StrEnum):
    """What one player got in one round; the values are the TRF-16 result codes."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    #: A game that lasted less than one move: it counts as played for pairing
    #: (the players met) but is not rated.
    WIN_UNRATED = "W"
    DRAW_UNRATED = "D"
    LOSS_UNRATED = "L"
    HALF_POINT_BYE = "H"
    FULL_POINT_BYE = "F"
    #: The bye the pairing gives to the odd player out; worth ``Tournament.bye_points``.
    PAIRING_BYE = "U"
    ZERO_POINT_BYE = "Z"

    def __repr__(self) -> str:
        return f"Outcome.{self.name}"

    @property
    def is_played(self) -> bool:
        """Whether a game took place over the board (the players have met)."""
        return self in _PLAYED

    @property
    def is_forfeit(self) -> bool:
        return self in (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS)

    @property
    def is_bye(self) -> bool:
        """A round without an opponent (requested byes, absence or the pairing bye)."""
        return self in _BYES

    @property
    def mirror(self) -> Outcome:
        """The opponent's outcome of the same game (only for games, not byes)."""
        try:
            return _MIRROR[self]
        except KeyError:
            raise ValueError(f"a bye has no opponent outcome: {self.value!r}") from None

    def points(self, bye_points: int = WIN_POINTS) -> int:
        """Half-points scored; ``bye_points`` is what the pairing-allocated bye is worth."""
        if self is Outcome.PAIRING_BYE:
            return bye_points
        return _POINTS[self]


_PLAYED = frozenset(
    {
        Outcome.WIN,
        Outcome.DRAW,
        Outcome.LOSS,
        Outcome.WIN_UNRATED,
        Outcome.DRAW_UNRATED,
        Outcome.LOSS_UNRATED,
    }
)
_BYES = frozenset(
    {
        Outcome.HALF_POINT_BYE,
        Outcome.FULL_POINT_BYE,
        Outcome.PAIRING_BYE,
        Outcome.ZERO_POINT_BYE,
    }
)
_POINTS = {
    Outcome.WIN: WIN_POINTS,
    Outcome.DRAW: DRAW_POINTS,
    Outcome.LOSS: LOSS_POINTS,
    Outcome.FORFEIT_WIN: WIN_POINTS,
    Outcome.FORFEIT_LOSS: LOSS_POINTS,
    Outcome.WIN_UNRATED: WIN_POINTS,
    Outcome.DRAW_UNRATED: DRAW_POINTS,
    Outcome.LOSS_UNRATED: LOSS_POINTS,
    Outcome.HALF_POINT_BYE: DRAW_POINTS,
    Outcome.FULL_POINT_BYE: WIN_POINTS,
    Outcome.ZERO_POINT_BYE: LOSS_POINTS,
}
_MIRROR = {
    Outcome.WIN: Outcome.LOSS,
    Outcome.LOSS: Outcome.WIN,
    Outcome.DRAW: Outcome.DRAW,
    Outcome.FORFEIT_WIN: Outcome.FORFEIT_LOSS,
    Outcome.FORFEIT_LOSS: Outcome.FORFEIT_WIN,
    Outcome.WIN_UNRATED: Outcome.LOSS_UNRATED,
    Outcome.LOSS_UNRATED: Outcome.WIN_UNRATED,
    Outcome.DRAW_UNRATED: Outcome.DRAW_UNRATED,
}
# Two entries that can describe the same game from both sides. A double
# forfeit (both players absent) is the one asymmetric-looking legal case.
_COMPATIBLE = frozenset((o, o.mirror) for o in _MIRROR) | {
    (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS)
}

#: Outcomes a player can be given for a round they are not paired in.
ABSENCE_OUTCOMES = frozenset(
    {Outcome.HALF_POINT_BYE, Outcome.FULL_POINT_BYE, Outcome.ZERO_POINT_BYE}
)


def format_points(half_points: int, *, ascii: bool = False) -> str:
    """Format half-points for display: ``1½``, ``½``, ``0`` (or ``1.5`` with ``ascii``).

    >>> format_points(3), format_points(1), format_points(4), format_points(0)
    ('1½', '½', '2', '0')
    >>> format_points(3, ascii=True), format_points(-1)
    ('1.5', '-½')
    """
    sign = "-" if half_points < 0 else ""
    whole, half = divmod(abs(half_points), 2)
    if ascii:
        return f"{sign}{whole}.{5 * half}" if half else f"{sign}{whole}"
    if not half:
        return f"{sign}{whole}"
    return f"{sign}{whole or ''}½"


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One player's entry for one round.

    ``opponent`` and ``color`` are None for byes and absences. A forfeit keeps
    the scheduled opponent (and usually the scheduled colour) but is not a
    played game: for pairing the two players have not met.
    """

    opponent: int | None
    color: Color | None
    outcome: Outcome

    def __post_init__(self) -> None:
        if self.outcome.is_bye:
            if self.opponent is not None or self.color is not None:
                raise TournamentError(f"a bye has no opponent or colour: {self!r}")
        elif self.opponent is None or self.opponent <= 0:
            raise TournamentError(f"a game needs an opponent: {self!r}")
        elif self.outcome.is_played and self.color not in ("w", "b"):
            raise TournamentError(f"a played game needs a colour: {self!r}")
        if self.color not in (None, "w", "b"):
            raise TournamentError(f"colour must be 'w', 'b' or None: {self!r}")

    @classmethod
    def bye(cls, outcome: Outcome = Outcome.PAIRING_BYE) -> RoundResult:
        return cls(None, None, outcome)

    @property
    def is_played(self) -> bool:
        return self.outcome.is_played


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    """A player and their results in the completed rounds, in round order.

    ``id`` is the starting rank (see :func:`~tournaments.pairing.ranking.assign_starting_ranks`).
    A withdrawn player keeps their past results and is never paired again.
    """

    id: int
    name: str
    rating: int = 0
    results: Sequence[RoundResult] = ()  # stored as a tuple
    withdrawn: bool = False

    def __post_init__(self) -> None:
        # Accept any iterable (lists are natural to build) but store a tuple,
        # so entries stay hashable and cannot change behind a Tournament.
        object.__setattr__(self, "results", tuple(self.results))

    def points(self, bye_points: int = WIN_POINTS) -> int:
        """Half-points from the completed rounds."""
        return sum(r.outcome.points(bye_points) for r in self.results)


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a round: ``black`` is None when ``white`` has the pairing bye."""

    white: int
    black: int | None

    @property
    def is_bye(self) -> bool:
        return self.black is None

    def as_pair(self) -> tuple[int, int]:
        """``(white, black)`` with a bye written ``(id, 0)``, as TRF tools print it."""
        return (self.white, self.black or 0)


@dataclass(frozen=True, slots=True)
class RoundPairing:
    """The pairing of one round, boards in publishing order (the bye last)."""

    round: int
    boards: tuple[Board, ...]

    @property
    def bye(self) -> int | None:
        """The player with the pairing-allocated bye, if any."""
        return next((b.white for b in self.boards if b.is_bye), None)

    def pairs(self) -> list[tuple[int, int]]:
        return [b.as_pair() for b in self.boards]


@dataclass(frozen=True, slots=True)
class Tournament:
    """Everything needed to pair the next round or rank the players.

    * ``players``: entries with ids 1..n, all with one result per completed round
      (a late entrant carries ``Z`` or ``H`` entries for the rounds they missed).
    * ``total_rounds``: planned number of rounds (TRF ``XXR``).
    * ``first_color``: colour of the top seed in round 1 (TRF ``XXC white1|black1``).
    * ``forbidden_pairs``: pairs that must never meet (TRF ``XXP``).
    * ``bye_points``: half-points of the pairing-allocated bye (2 = 1 point, 1 = ½, 0).
    * ``requested_byes``: players that will not be paired in the *next* round and
      the outcome they get (``H``, ``F`` or ``Z``); withdrawn players are skipped
      automatically.
    * ``accelerations``: acceleration points (half-points, round 1 first) added
      to a player's score for pairing only (FIDE C.04.5, TRF ``XXA``); a round
      beyond the list adds nothing. Standings never see them.
    """

    players: Sequence[PlayerEntry]  # stored as a tuple sorted by id
    total_rounds: int
    first_color: Color = "w"
    forbidden_pairs: Collection[Collection[int]] = frozenset()  # stored as frozensets
    bye_points: int = WIN_POINTS
    requested_byes: Mapping[int, Outcome] = field(default_factory=dict)
    accelerations: Mapping[int, Sequence[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(sorted(self.players, key=lambda p: p.id)))
        object.__setattr__(
            self,
            "forbidden_pairs",
            frozenset(frozenset(pair) for pair in self.forbidden_pairs),
        )
        object.__setattr__(
            self,
            "requested_byes",
            # A private copy (plain dict: tournaments must pickle for task queues).
            {int(k): Outcome(v) for k, v in self.requested_byes.items()},
        )
        object.__setattr__(
            self,
            "accelerations",
            {int(k): tuple(v) for k, v in self.accelerations.items() if any(v)},
        )

    def __hash__(self) -> int:
        return hash((self.players, self.total_rounds, self.first_color, self.forbidden_pairs))

    def acceleration(self, player_id: int, round_number: int) -> int:
        """Acceleration half-points of a player in a round (1-based), 0 if none."""
        values = self.accelerations.get(player_id, ())
        return values[round_number - 1] if 0 < round_number <= len(values) else 0

    @property
    def rounds_played(self) -> int:
        """Number of completed rounds (the length of every player's results)."""
        return max((len(p.results) for p in self.players), default=0)

    def player(self, player_id: int) -> PlayerEntry:
        return self.players[player_id - 1]

    def points(self) -> dict[int, int]:
        """Half-points of every player after the completed rounds."""
        return {p.id: p.points(self.bye_points) for p in self.players}

    def absent_next_round(self) -> dict[int, Outcome]:
        """Players not to be paired next round and the outcome recorded for them."""
        absent = {p.id: Outcome.ZERO_POINT_BYE for p in self.players if p.withdrawn}
        absent.update(self.requested_byes)
        return absent

    def validate(self) -> None:
        """Raise :class:`TournamentError` unless the data is consistent.

        Checked: ids are exactly 1..n; every player has one result per completed
        round; each game is recorded on both sides with matching outcomes and
        opposite colours; requested byes name real players and are H/F/Z.
        """
        for index, player in enumerate(self.players, start=1):
            if player.id != index:
                raise TournamentError(
                    f"starting ranks must be 1..{len(self.players)}, missing {index}"
                )
        if self.total_rounds < 0:
            raise TournamentError("total_rounds must not be negative")
        if self.first_color not in ("w", "b"):
            raise TournamentError(f"first_color must be 'w' or 'b', not {self.first_color!r}")
        if not 0 <= self.bye_points <= WIN_POINTS:
            raise TournamentError("bye_points must be 0, 1 or 2 half-points")
        rounds = self.rounds_played
        count = len(self.players)
        for player in self.players:
            if len(player.results) != rounds:
                raise TournamentError(
                    f"player {player.id} has {len(player.results)} results, expected {rounds}"
                )
        for player in self.players:
            for round_index, result in enumerate(player.results):
                if result.opponent is None:
                    continue
                _check_game(self, player.id, round_index, result, count)
        for pair in self.forbidden_pairs:
            if len(pair) != 2 or not all(1 <= p <= count for p in pair):
                raise TournamentError(f"forbidden pair {sorted(pair)} is not two known players")
        for player_id, outcome in self.requested_byes.items():
            if not 1 <= player_id <= count:
                raise TournamentError(f"requested bye for unknown player {player_id}")
            if outcome not in ABSENCE_OUTCOMES:
                raise TournamentError(f"player {player_id}: a requested bye must be H, F or Z")
        for player_id, values in self.accelerations.items():
            if not 1 <= player_id <= count:
                raise TournamentError(f"acceleration for unknown player {player_id}")
            if any(value < 0 for value in values):
                raise TournamentError(f"player {player_id}: negative acceleration")


def _check_game(
    tournament: Tournament,
    player_id: int,
    round_index: int,
    result: RoundResult,
    count: int,
) -> None:
    where = f"player {player_id}, round {round_index + 1}"
    opponent_id = result.opponent
    assert opponent_id is not None
    if not 1 <= opponent_id <= count or opponent_id == player_id:
        raise TournamentError(f"{where}: bad opponent {opponent_id}")
    other = tournament.player(opponent_id).results[round_index]
    if other.opponent != player_id:
        raise TournamentError(f"{where}: opponent {opponent_id} does not list this game")
    if (result.outcome, other.outcome) not in _COMPATIBLE:
        raise TournamentError(
            f"{where}: results {result.outcome.value!r} and {other.outcome.value!r} do not match"
        )
    if result.color is not None and result.color == other.color:
        raise TournamentError(f"{where}: both players had the same colour")


def record_round(
    tournament: Tournament,
    pairing: RoundPairing,
    white_outcomes: Mapping[int, Outcome],
) -> Tournament:
    """Return the tournament with one more completed round.

    ``white_outcomes`` maps each board's White player to White's outcome
    (``WIN``, ``DRAW``, ``LOSS``, ``FORFEIT_WIN``...); Black gets the mirror.
    The bye board scores ``U``; absent and withdrawn players get their
    requested outcome (``Z`` for withdrawn). Requested byes are consumed.
    """
    new_results: dict[int, RoundResult] = {}
    for board in pairing.boards:
        if board.black is None:
            new_results[board.white] = RoundResult.bye(Outcome.PAIRING_BYE)
            continue
        outcome = white_outcomes[board.white]
        new_results[board.white] = RoundResult(board.black, "w", outcome)
        new_results[board.black] = RoundResult(board.white, "b", outcome.mirror)
    for player_id, outcome in tournament.absent_next_round().items():
        new_results.setdefault(player_id, RoundResult.bye(outcome))
    players = []
    for player in tournament.players:
        result = new_results.get(player.id, RoundResult.bye(Outcome.ZERO_POINT_BYE))
        players.append(
            PlayerEntry(
                player.id,
                player.name,
                player.rating,
                (*player.results, result),
                player.withdrawn,
            )
        )
    return Tournament(
        tuple(players),
        tournament.total_rounds,
        tournament.first_color,
        tournament.forbidden_pairs,
        tournament.bye_points,
        {},
        tournament.accelerations,
    )


def forbidden_pairs_from_groups(
    groups: Iterable[Iterable[int]],
) -> frozenset[frozenset[int]]:
    """Every pair inside each group (TRF ``XXP 3 7 9`` forbids 3-7, 3-9 and 7-9)."""
    pairs: set[frozenset[int]] = set()
    for group in groups:
        members = sorted(set(group))
        pairs.update(frozenset((a, b)) for i, a in enumerate(members) for b in members[i + 1 :])
    return frozenset(pairs)
