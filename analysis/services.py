"""Computer analysis of a finished game: request it, run it (resumably), read it.

The job (analysis.tasks.analyse_game) evaluates every position of the game with the
engine (engine.analysis.evaluate, a node budget: the same game always gives the same
analysis) and stores each position's verdict in its own transaction.  Run again (its
worker died; the message is delivered again), it starts after the last stored ply.

A turn's entry is read from two neighbouring positions: ``eval`` is White's expected
score after the turn, ``best`` the engine's preferred turn in the position the turn was
played from, and the ``judgement`` comes from the drop of the mover's expected score
between the two (JUDGEMENTS; docs/analysis.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from analysis import errors
from analysis.models import AnalysedPosition, GameAnalysis
from engine import Color, Position, Turn
from engine.analysis import Evaluation, evaluate
from games.models import Game

#: (smallest drop of the mover's expected score, judgement), the worst first: like
#: lichess's winning-chance drops of 0.1, 0.2 and 0.3 (docs/analysis.md).
JUDGEMENTS: tuple[tuple[float, str], ...] = (
    (0.30, "blunder"),
    (0.20, "mistake"),
    (0.10, "inaccuracy"),
)


def judgement(drop: float) -> str | None:
    """The judgement of a turn that lowered its mover's expected score by `drop`."""
    for threshold, name in JUDGEMENTS:
        # A hair of tolerance: 0.3 computed as 0.8 - 0.5 is 0.30000000000000004 or less.
        if drop >= threshold - 1e-9:
            return name
    return None


def analysis_nodes() -> int:
    """The engine's node budget per position (settings.ANALYSIS_NODES)."""
    return int(getattr(settings, "ANALYSIS_NODES", 20_000))


def request_analysis(*, game: Game, user: Any) -> tuple[GameAnalysis, bool]:
    """The game's analysis job, queued now unless one exists: (analysis, created)."""
    from analysis import tasks

    existing = GameAnalysis.objects.filter(game=game).first()
    if existing is not None:
        return existing, False
    if game.status != Game.Status.FINISHED:
        raise errors.GameNotFinished()
    if not game.start_position:
        raise errors.GameNotFinished()  # a pie game that ended before its setup: no positions
    try:
        with transaction.atomic():
            analysis = GameAnalysis.objects.create(
                game=game,
                requested_by=user if user is not None and user.is_authenticated else None,
                nodes=analysis_nodes(),
                positions=game.ply + 1,
            )
            tasks.analyse_game.delay(analysis.pk)  # sent at the commit
    except IntegrityError:  # a simultaneous request made it first: the same job
        return GameAnalysis.objects.get(game=game), False
    return analysis, True


def progress(analysis: GameAnalysis, stored: int | None = None) -> float:
    """The share of the game's positions analysed, 0..1."""
    if analysis.status == GameAnalysis.Status.DONE:
        return 1.0
    if stored is None:
        stored = analysis.rows.count()
    return round(min(1.0, stored / max(1, analysis.positions)), 3)


def _row(ply: int, verdict: Evaluation) -> dict[str, Any]:
    return {
        "ply": ply,
        "expected": verdict.expected,
        "best": str(verdict.best) if verdict.best is not None else "",
        "pv": " ".join(str(turn) for turn in verdict.pv)[:1024],
    }


def run_analysis(analysis_id: int) -> int:
    """Analyse the positions not analysed yet (see the module docstring); returns how
    many this run stored.  Idempotent: a finished analysis is left alone."""
    analysis = GameAnalysis.objects.select_related("game").filter(pk=analysis_id).first()
    if analysis is None or analysis.status == GameAnalysis.Status.DONE:
        return 0
    game = analysis.game
    texts = list(game.turns.order_by("ply").values_list("text", flat=True))
    done = set(analysis.rows.values_list("ply", flat=True))
    GameAnalysis.objects.filter(pk=analysis.pk).update(
        status=GameAnalysis.Status.RUNNING, positions=len(texts) + 1, updated=timezone.now()
    )
    position = Position.from_string(game.start_position)
    stored = 0
    for ply in range(len(texts) + 1):
        if ply > 0:
            position.push(Turn.parse(texts[ply - 1]))  # checked when it was played
        if ply in done:
            continue
        verdict = evaluate(position, nodes=analysis.nodes)
        # One transaction per position: what is stored survives the worker's death.
        AnalysedPosition.objects.update_or_create(
            analysis=analysis, ply=ply, defaults=_row(ply, verdict)
        )
        stored += 1
    GameAnalysis.objects.filter(pk=analysis.pk).update(
        status=GameAnalysis.Status.DONE, finished=timezone.now(), updated=timezone.now()
    )
    return stored


@dataclass(frozen=True)
class TurnEntry:
    ply: int
    turn: str
    eval: float
    best: str
    judgement: str | None
    drop: float  # the mover's expected-score drop (negative: better than expected)

    def as_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "turn": self.turn,
            "eval": self.eval,
            "best": self.best,
            "judgement": self.judgement,
        }


def turn_entries(analysis: GameAnalysis) -> list[TurnEntry]:
    """One entry per turn of the game, in order (only where both positions are analysed)."""
    game = analysis.game
    texts = list(game.turns.order_by("ply").values_list("text", flat=True))
    rows = {row.ply: row for row in analysis.rows.all()}
    position = Position.from_string(game.start_position)
    entries = []
    for ply, text in enumerate(texts, 1):
        mover_is_white = position.side_to_move is Color.WHITE
        position.push(Turn.parse(text))
        before, after = rows.get(ply - 1), rows.get(ply)
        if before is None or after is None:
            continue
        if mover_is_white:
            drop = before.expected - after.expected
        else:
            drop = after.expected - before.expected
        # The engine's own choice is never a mistake (a deeper look after it may disagree).
        verdict = None if text == before.best else judgement(drop)
        entries.append(
            TurnEntry(ply, text, round(after.expected, 3), before.best, verdict, round(drop, 3))
        )
    return entries


def analysis_answer(analysis: GameAnalysis) -> dict[str, Any]:
    """The API's answer: status and progress; the turns once done."""
    answer: dict[str, Any] = {"status": analysis.status, "progress": progress(analysis)}
    if analysis.status == GameAnalysis.Status.DONE:
        answer["turns"] = [entry.as_json() for entry in turn_entries(analysis)]
    return answer


def evaluations_by_ply(game_id: int) -> dict[int, float]:
    """White's expected score after each ply of a game's finished analysis ({} if none):
    the `{[%eval …]}` comments of its .agn download."""
    return dict(
        AnalysedPosition.objects.filter(
            analysis__game_id=game_id, analysis__status=GameAnalysis.Status.DONE, ply__gt=0
        ).values_list("ply", "expected")
    )


# --- The analysis board: one position on request --------------------------------------


def parse_position(text: str) -> Position:
    """A position string as the engine reads it, or InvalidPosition with its reason."""
    from engine import InvalidPositionError

    try:
        return Position.from_string(text)
    except InvalidPositionError as exc:
        raise errors.InvalidPosition(str(exc)) from None


def position_nodes() -> int:
    """The node budget of the analysis board's evaluations (settings.ANALYSIS_BOARD_NODES)."""
    return int(getattr(settings, "ANALYSIS_BOARD_NODES", 50_000))


def evaluate_position_now(text: str, nodes: int | None = None) -> dict[str, Any]:
    """The engine's verdict on one position (what the evaluate_position job returns)."""
    verdict = evaluate(parse_position(text), nodes=nodes or position_nodes())
    return {
        "position": text,
        "eval": round(verdict.expected, 3),
        "best": str(verdict.best) if verdict.best is not None else None,
        "pv": [str(turn) for turn in verdict.pv],
        "depth": verdict.depth,
    }
