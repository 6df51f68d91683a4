"""Single-elimination brackets: seeding, byes, tie rules and the next games to pair.

Pure Python.  Players are starting ranks 1..n (1 = the highest rating).  The
bracket has P = the next power of two >= n places; seeds above n are missing,
so the top seeds get the byes.  The standard seeding order keeps 1 and 2 apart
until the final, 1..4 until the semi-finals, and so on (1 v P, 2 v P-1 …).

A match is one game; a tied game (a draw, or a double forfeit) is settled by
the cup's tie rule:

* ``replay`` — another game with the colours swapped, until one is decisive;
  after ``MAX_MATCH_GAMES`` tied games the higher seed advances;
* ``seed`` — the higher seed advances;
* ``black`` — the player who had Black advances.

The bracket is rebuilt from the games played (each knows its two players: two
players meet in one match only), so nothing but the games needs storing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

TIE_RULES = ("replay", "seed", "black")
MAX_MATCH_GAMES = 4  # the first game and at most three replays
# Half-points of a TRF result code for one side (the tournament's own codes).
_POINTS = {"1": 2, "+": 2, "=": 1, "0": 0, "-": 0}


@dataclass(frozen=True)
class KnockoutGame:
    """One game of the cup: ``round`` is the tournament round it was paired in;
    outcomes are TRF codes, blank while it is being played."""

    round: int
    white: int
    black: int
    white_outcome: str = ""
    black_outcome: str = ""

    @property
    def finished(self) -> bool:
        return bool(self.white_outcome)

    def winner(self) -> int | None:
        """The side with more points, None for a tie or a game still on."""
        if not self.finished:
            return None
        white, black = _POINTS[self.white_outcome], _POINTS[self.black_outcome]
        if white == black:
            return None
        return self.white if white > black else self.black


@dataclass
class Match:
    bracket_round: int  # 1 = the first round
    slot: int  # 0-based position in its bracket round
    high: int | None  # the higher seed (smaller number)
    low: int | None
    games: list[KnockoutGame] = field(default_factory=list)
    winner: int | None = None
    # How it was decided: "bye", "game", "seed" (tie rule or replay cap), "black".
    decided_by: str = ""

    @property
    def loser(self) -> int | None:
        if self.winner is None or self.low is None:
            return None
        return self.low if self.winner == self.high else self.high

    def needs_game(self) -> bool:
        """Both players known, undecided, and no game on: a (re)play is due."""
        return (
            self.winner is None
            and self.high is not None
            and self.low is not None
            and all(game.finished for game in self.games)
        )

    def next_colours(self) -> tuple[int, int]:
        """(white, black) of the match's next game: the higher seed has White first,
        each replay swaps the colours of the game before."""
        assert self.high is not None and self.low is not None
        if not self.games:
            return self.high, self.low
        last = self.games[-1]
        return last.black, last.white


@dataclass
class Bracket:
    players: int
    size: int  # places: a power of two
    rounds: list[list[Match]]

    @property
    def champion(self) -> int | None:
        return self.rounds[-1][0].winner if self.rounds else None

    def current_round(self) -> int:
        """The first bracket round with an undecided match (len(rounds) + 1 when over)."""
        for number, matches in enumerate(self.rounds, start=1):
            if any(match.winner is None for match in matches):
                return number
        return len(self.rounds) + 1

    def next_boards(self) -> list[tuple[int, int]]:
        """The games to pair now, as (white, black): replays of the current bracket
        round's tied matches, or — once it is all decided — the next round's games.
        Empty while games are on or when the cup is over."""
        if any(not g.finished for matches in self.rounds for m in matches for g in m.games):
            return []
        number = self.current_round()
        if number > len(self.rounds):
            return []
        return [m.next_colours() for m in self.rounds[number - 1] if m.needs_game()]

    def reached(self) -> dict[int, int]:
        """Each player's last bracket round (len(rounds) + 1 for the champion)."""
        last: dict[int, int] = {}
        for number, matches in enumerate(self.rounds, start=1):
            for match in matches:
                for seed in (match.high, match.low):
                    if seed is not None:
                        last[seed] = number
        if self.champion is not None:
            last[self.champion] = len(self.rounds) + 1
        return last


def bracket_size(players: int) -> int:
    size = 1
    while size < players:
        size *= 2
    return max(size, 2)


def seeding_order(size: int) -> list[int]:
    """Seeds by bracket position: [1, 4, 2, 3] for 4, [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for first in order for seed in (first, total - first)]
    return order


def _decide(match: Match, tie_rule: str) -> None:
    if match.high is None or match.low is None:
        if match.high is not None and match.bracket_round == 1:
            match.winner, match.decided_by = match.high, "bye"
        return
    finished = [game for game in match.games if game.finished]
    for game in finished:
        winner = game.winner()
        if winner is not None:
            match.winner, match.decided_by = winner, "game"
            return
    if not finished or len(finished) < len(match.games):
        return  # nothing played yet, or a game still on
    if tie_rule == "black":
        match.winner, match.decided_by = finished[0].black, "black"
    elif tie_rule == "seed" or len(finished) >= MAX_MATCH_GAMES:
        match.winner, match.decided_by = match.high, "seed"


def build_bracket(players: int, games: Iterable[KnockoutGame], tie_rule: str) -> Bracket:
    """The bracket of ``players`` seeds after ``games`` (in the order played)."""
    if tie_rule not in TIE_RULES:
        raise ValueError(f"unknown tie rule {tie_rule!r}")
    size = bracket_size(players)
    by_pair: dict[frozenset[int], list[KnockoutGame]] = {}
    for game in sorted(games, key=lambda g: g.round):
        by_pair.setdefault(frozenset((game.white, game.black)), []).append(game)
    order = [seed if seed <= players else None for seed in seeding_order(size)]
    entrants: list[int | None] = order
    rounds: list[list[Match]] = []
    number = 1
    while len(entrants) > 1:
        matches = []
        for slot in range(len(entrants) // 2):
            a, b = entrants[2 * slot], entrants[2 * slot + 1]
            known = sorted(seed for seed in (a, b) if seed is not None)
            high = known[0] if known else None
            low = known[1] if len(known) == 2 else None
            match = Match(number, slot, high, low)
            if high is not None and low is not None:
                match.games = by_pair.get(frozenset((high, low)), [])
            _decide(match, tie_rule)
            matches.append(match)
        rounds.append(matches)
        entrants = [match.winner for match in matches]
        number += 1
    return Bracket(players, size, rounds)


def placements(bracket: Bracket) -> dict[int, int]:
    """Final places: 1 the champion, 2 the finalist, 3 both semi-final losers, 5 the
    quarter-final losers …; players still in share the best place they can reach."""
    total = len(bracket.rounds)
    return {
        seed: 1 if last > total else 2 ** (total - last) + 1
        for seed, last in bracket.reached().items()
    }
