"""Replay stored games through the engine and report every mismatch with their cache.

A game row caches ``position`` and ``ply``; the turns are the truth.  A game is
consistent when its turns are numbered 1..n without a gap, every one is legal
where it was played, the replayed position equals the cached one, and a game the
engine says is over is not still running.  The ``verify_games`` command and the
beat tasks ``verify_all_games`` (daily) and ``verify_recent_games`` (every ten
minutes, archive/tasks.py) use :func:`verify_games`.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from engine import Position
from games.models import Game

logger = logging.getLogger(__name__)

CHUNK = 500


@dataclass(frozen=True)
class Mismatch:
    game_id: int
    problem: str

    def __str__(self) -> str:
        return f"game {self.game_id}: {self.problem}"


@dataclass
class Report:
    checked: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches


def check_game(game: Game, turns: Iterable[tuple[int, str]]) -> list[str]:
    """The problems of one game, given its (ply, text) turns in ply order; [] when sound."""
    if not game.start_position:
        # A pie game whose pieces are not placed yet: nothing can have been played.
        played = list(turns)
        return [f"{len(played)} turns stored before the pie setup"] if played else []
    problems: list[str] = []
    try:
        position = Position.from_string(game.start_position)
    except ValueError as exc:
        return [f"start position does not parse: {exc}"]
    expected_ply = 0
    for expected_ply, (ply, text) in enumerate(turns, start=1):
        if ply != expected_ply:
            problems.append(f"turn numbered {ply} where {expected_ply} was expected")
            break
        try:
            position.push_text(text)  # checked: an illegal stored turn is a mismatch
        except ValueError as exc:
            problems.append(f"turn {ply} {text!r} does not replay: {exc}")
            break
    else:
        if expected_ply != game.ply:
            problems.append(f"{expected_ply} turns stored but the game says ply {game.ply}")
        if str(position) != game.position:
            problems.append(f"cached position {game.position!r} but replay gives {str(position)!r}")
        outcome = position.outcome()
        if outcome is not None and game.status != Game.Status.FINISHED:
            problems.append(f"the engine says {outcome.result()} but the game is {game.status}")
        if (
            outcome is not None
            and game.status == Game.Status.FINISHED
            and game.termination == outcome.termination.value
            and game.result != outcome.result()
        ):
            problems.append(f"result {game.result} but the engine says {outcome.result()}")
    return problems


def _games_with_turns(games: Iterable[Game]) -> Iterator[tuple[Game, list[tuple[int, str]]]]:
    from games.models import Turn

    batch: list[Game] = []

    def flush() -> Iterator[tuple[Game, list[tuple[int, str]]]]:
        by_game: dict[int, list[tuple[int, str]]] = {game.pk: [] for game in batch}
        rows = Turn.objects.filter(game_id__in=by_game).order_by("game_id", "ply")
        for game_id, ply, text in rows.values_list("game_id", "ply", "text"):
            by_game[game_id].append((ply, text))
        for game in batch:
            yield game, by_game[game.pk]

    for game in games:
        batch.append(game)
        if len(batch) == CHUNK:
            yield from flush()
            batch = []
    if batch:
        yield from flush()


def verify_games(
    game_ids: Iterable[int] | None = None, *, finished_since: dt.datetime | None = None
) -> Report:
    """Check every stored game (or those of `game_ids`, or those finished since
    `finished_since`), a chunk of games at a time."""
    games = Game.objects.order_by("pk").only(
        "pk", "start_position", "position", "ply", "status", "result", "termination"
    )
    if game_ids is not None:
        games = games.filter(pk__in=list(game_ids))
    if finished_since is not None:
        games = games.filter(finished__gte=finished_since)
    report = Report()
    for game, turns in _games_with_turns(games.iterator(chunk_size=CHUNK)):
        report.checked += 1
        for problem in check_game(game, turns):
            report.mismatches.append(Mismatch(game.pk, problem))
    for mismatch in report.mismatches:
        logger.error("verify_games: %s", mismatch)
    return report
