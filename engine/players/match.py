"""Matches between computer players (``python -m engine match``).

A match plays ``games`` games from a start position, player A taking White
in the odd-numbered games and Black in the even-numbered ones (so both
colours equally when ``games`` is even). With ``random_turns`` N > 0, each
pair of games (1-2, 3-4...) starts with the same N random turns
(:meth:`Position.random_turn`, seeded) before the players take over: the
same opening with colours swapped, and more varied games than from the
start alone (N = 0 by default; at most :data:`MAX_RANDOM_TURNS`, and fewer
than ``max_turns``). Random games end early (from the standard start within
about 80 turns): when :data:`OPENING_TRIES` tries find no N random turns that
leave the game running, :class:`OpeningError` says so. A game that reaches ``max_turns``
turns (default :data:`MAX_TURNS`) without a result is a draw, like a draw by
repetition. Each game gets fresh players seeded from the match seed.
``jobs`` plays games in parallel processes, with the same games for any number.

The summary is one line, from A's side::

    A vs B: <wins>-<losses>-<draws>, score <S>% ± <CI>%, <L> turns per game

where the score counts a win 1, a draw 1/2, a loss 0, and the ± is the half
width of a 95% confidence interval by the normal approximation,
``1.96 * sd / sqrt(n)`` with ``sd`` the sample standard deviation of the
per-game scores (0 for a single game).

>>> result = play_match("random", "random", games=2, seconds=1, seed=1, max_turns=10)
>>> result.summary()
'random vs random: 0-0-2, score 50.0% ± 0.0%, 10.0 turns per game'
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from engine.players import get_player
from engine.players.base import check_seconds
from engine.position import STANDARD_START, Position

__all__ = [
    "MAX_RANDOM_TURNS",
    "MAX_TURNS",
    "OPENING_TRIES",
    "GameResult",
    "MatchResult",
    "OpeningError",
    "play_game",
    "play_match",
]

#: a game still running after this many turns is a draw
MAX_TURNS = 400
#: the longest random opening
MAX_RANDOM_TURNS = 1000
#: random openings tried before :class:`OpeningError`
OPENING_TRIES = 1000


class OpeningError(ValueError):
    """No random opening of the asked length that leaves the game running was found."""


@dataclass(frozen=True)
class GameResult:
    """One game: ``result`` is ``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""

    white: str
    black: str
    result: str
    reason: str
    turns: int
    final: str
    #: the longest time each colour took for one turn, in seconds
    slowest: tuple[float, float]


@dataclass
class MatchResult:
    """The games of a match and the summary from A's side."""

    a: str
    b: str
    seconds: float
    games: list[GameResult] = field(default_factory=list)
    a_scores: list[float] = field(default_factory=list)
    slowest: dict[str, float] = field(default_factory=dict)

    def add(self, game: GameResult, a_is_white: bool) -> None:
        """Record a game."""
        self.games.append(game)
        if game.result == "1/2-1/2":
            self.a_scores.append(0.5)
        else:
            self.a_scores.append(1.0 if (game.result == "1-0") == a_is_white else 0.0)
        for who, t in zip(
            (self.a, self.b) if a_is_white else (self.b, self.a), game.slowest, strict=True
        ):
            self.slowest[who] = max(self.slowest.get(who, 0.0), t)

    def counts(self) -> tuple[int, int, int]:
        """``(wins, losses, draws)`` of A."""
        wins = sum(1 for s in self.a_scores if s == 1.0)
        losses = sum(1 for s in self.a_scores if s == 0.0)
        return wins, losses, len(self.a_scores) - wins - losses

    def score(self) -> tuple[float, float]:
        """A's mean score and the 95% half width, in percent."""
        n = len(self.a_scores)
        if not n:
            return 0.0, 0.0
        mean = sum(self.a_scores) / n
        if n < 2:
            return 100 * mean, 0.0
        var = sum((s - mean) ** 2 for s in self.a_scores) / (n - 1)
        return 100 * mean, 100 * 1.96 * math.sqrt(var / n)

    def summary(self) -> str:
        """The one-line summary (see the module docstring)."""
        wins, losses, draws = self.counts()
        mean, half = self.score()
        turns = sum(g.turns for g in self.games) / max(len(self.games), 1)
        return (
            f"{self.a} vs {self.b}: {wins}-{losses}-{draws}, "
            f"score {mean:.1f}% ± {half:.1f}%, {turns:.1f} turns per game"
        )


def play_game(
    white: str,
    black: str,
    *,
    seconds: float,
    seed: int | None = None,
    max_turns: int = MAX_TURNS,
    start: str = STANDARD_START,
    opening: tuple[str, ...] = (),
) -> GameResult:
    """Play one game between two named players; every turn is checked for legality.

    ``opening`` turns are played first (they count in ``turns``).

    >>> game = play_game("greedy", "random", seconds=0.5, seed=2)
    >>> game.result, game.reason
    ('1-0', 'captures')
    """
    rng = random.Random(seed)
    players = (
        get_player(white, seed=rng.randrange(2**32)),
        get_player(black, seed=rng.randrange(2**32)),
    )
    pos = Position(start)
    for text in opening:
        pos.push_text(text)
    slowest = [0.0, 0.0]
    turns = len(opening)
    outcome = pos.outcome()
    while outcome is None and turns < max_turns:
        side = pos.side_to_move.index
        began = time.perf_counter()
        turn = players[side].choose(pos, seconds=seconds)
        slowest[side] = max(slowest[side], time.perf_counter() - began)
        if turn not in pos.legal_turns:
            raise RuntimeError(f"{players[side].name} played an illegal turn {turn} in {pos}")
        pos.push(turn)
        turns += 1
        outcome = pos.outcome()
    if outcome is None:
        result, reason = "1/2-1/2", f"the {max_turns}-turn cap"
    else:
        result, reason = outcome.result(), outcome.termination.value
    return GameResult(
        white, black, result, reason, turns, pos.to_string(), (slowest[0], slowest[1])
    )


def play_match(
    a: str,
    b: str,
    *,
    games: int,
    seconds: float,
    seed: int | None = None,
    max_turns: int = MAX_TURNS,
    start: str = STANDARD_START,
    random_turns: int = 0,
    jobs: int = 1,
    progress: Callable[[int, GameResult, MatchResult], None] | None = None,
) -> MatchResult:
    """Play a match; A is White in games 1, 3, 5... ``progress`` is called after each game.

    ``jobs`` > 1 plays that many games at once in worker processes. Every
    game's seed and opening are drawn from the match seed before play, in
    game order, and the results are recorded in game order: the same games
    for any ``jobs`` (a search limited by time still depends on the speed of
    the machine, which parallel games share).

    Raises ValueError before any game for a bad argument, :class:`OpeningError`
    when the random openings cannot be found.
    """
    for name in (a, b):
        get_player(name)  # fail early on an unknown name
    check_seconds(seconds)
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs!r}")
    if not 0 <= random_turns <= MAX_RANDOM_TURNS:
        raise ValueError(f"random_turns is 0-{MAX_RANDOM_TURNS}, not {random_turns}")
    if random_turns and random_turns >= max_turns:
        raise ValueError(f"random_turns must be less than max_turns: {random_turns} >= {max_turns}")
    rng = random.Random(seed)
    match = MatchResult(a, b, seconds)
    specs: list[tuple[str, str, float, int, int, str, tuple[str, ...]]] = []
    opening: tuple[str, ...] = ()
    for number in range(1, games + 1):
        a_is_white = number % 2 == 1
        white, black = (a, b) if a_is_white else (b, a)
        if a_is_white:
            opening = _random_opening(start, random_turns, rng)
        specs.append((white, black, seconds, rng.randrange(2**32), max_turns, start, opening))
    if jobs == 1:
        results: Iterable[GameResult] = map(_play_spec, specs)
        pool = None
    else:
        pool = ProcessPoolExecutor(max_workers=min(jobs, games))
        results = pool.map(_play_spec, specs)
    try:
        for number, game in enumerate(results, 1):
            match.add(game, number % 2 == 1)
            if progress is not None:
                progress(number, game, match)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return match


def _play_spec(spec: tuple[str, str, float, int, int, str, tuple[str, ...]]) -> GameResult:
    white, black, seconds, seed, max_turns, start, opening = spec
    return play_game(
        white,
        black,
        seconds=seconds,
        seed=seed,
        max_turns=max_turns,
        start=start,
        opening=opening,
    )


def _random_opening(start: str, turns: int, rng: random.Random) -> tuple[str, ...]:
    """``turns`` random turns from ``start`` that do not end the game (OpeningError
    when :data:`OPENING_TRIES` tries find none)."""
    for _ in range(OPENING_TRIES):
        pos = Position(start)
        out = []
        for _ in range(turns):
            turn = pos.random_turn(rng)
            pos.push(turn)
            out.append(str(turn))
            if pos.outcome() is not None:
                break
        if pos.outcome() is None:
            return tuple(out)
    raise OpeningError(
        f"no opening of {turns} random turns that leaves the game running was found "
        f"in {OPENING_TRIES} tries from {start!r}"
    )


def main(argv: list[str] | None = None) -> int:
    """``python -m engine.players.match A B ...``: the same as ``python -m engine match``
    (the same options, output and errors)."""
    from engine.cli import main as cli_main

    return cli_main(["match", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    raise SystemExit(main())
