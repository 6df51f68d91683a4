"""Computer analysis of a finished game: request it, run it (resumably), read it; and
the analysis board's evaluation of one position.

Both are jobs of the fair queue (core.jobs; kinds registered by :func:`register_jobs`):
capped per user, served in turns between users.  An analysis evaluates every position
of the game with the engine (engine.analysis.evaluate, a node budget: the same game
always gives the same analysis) and stores each position's verdict in its own
transaction, by slices of about ``JOBS_SLICE_SECONDS``: each slice (and a run after a
lost worker) starts after the last stored ply.

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
from django.utils.translation import gettext_lazy as _

from analysis import errors
from analysis.models import AnalysedPosition, GameAnalysis
from core import jobs
from core.models import Job
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
    """The game's analysis, queued now unless one exists: (analysis, created).  A failed
    one is queued again (it resumes).  Refused with core.jobs' ``Busy`` when the user's
    analyses waiting or running, or all those waiting, reach their cap."""
    existing = GameAnalysis.objects.filter(game=game).first()
    if existing is not None and existing.status != GameAnalysis.Status.FAILED:
        return existing, False
    if game.status != Game.Status.FINISHED:
        raise errors.GameNotFinished()
    if not game.start_position:
        raise errors.GameNotFinished()  # a pie game that ended before its setup: no positions
    owner = user if user is not None and user.is_authenticated else None
    try:
        with transaction.atomic():
            if existing is not None:
                analysis = existing
                GameAnalysis.objects.filter(pk=analysis.pk).update(
                    status=GameAnalysis.Status.QUEUED, finished=None, updated=timezone.now()
                )
            else:
                analysis = GameAnalysis.objects.create(
                    game=game, requested_by=owner, nodes=analysis_nodes(), positions=game.ply + 1
                )
            jobs.submit(kind=ANALYSIS_JOB, owner=owner, subject_id=analysis.pk)
    except IntegrityError:  # a simultaneous request made it first: the same job
        return GameAnalysis.objects.get(game=game), False
    analysis.refresh_from_db()
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


def run_analysis(analysis_id: int, piece: jobs.Slice | None = None) -> int:
    """Analyse the positions not analysed yet (see the module docstring); returns how
    many this run stored.  With a job's ``piece``, stops once its time is over (after at
    least one position) and beats its heartbeat after each.  Idempotent: a finished
    analysis is left alone."""
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
        if piece is not None and stored and piece.over():
            return stored  # the rest in a later slice
        verdict = evaluate(position, nodes=analysis.nodes)
        # One transaction per position: what is stored survives the worker's death.
        AnalysedPosition.objects.update_or_create(
            analysis=analysis, ply=ply, defaults=_row(ply, verdict)
        )
        stored += 1
        if piece is not None:
            piece.beat()
    GameAnalysis.objects.filter(pk=analysis.pk).update(
        status=GameAnalysis.Status.DONE, finished=timezone.now(), updated=timezone.now()
    )
    return stored


def analysis_slice(piece: jobs.Slice) -> jobs.Outcome:
    """The ``analysis`` job's work: one slice of :func:`run_analysis`."""
    analysis_id = int(piece.job.subject_id or 0)
    run_analysis(analysis_id, piece)
    status = GameAnalysis.objects.filter(pk=analysis_id).values_list("status", flat=True).first()
    if status is None:
        return jobs.failed("the analysis was deleted (with its game)")
    return jobs.done() if status == GameAnalysis.Status.DONE else jobs.MORE


def analysis_failed(job: Job) -> None:
    """The job gave up (core.jobs: its worker lost too often): the analysis says so."""
    if job.subject_id is None:  # an analysis job always names its analysis
        return
    GameAnalysis.objects.filter(pk=job.subject_id).exclude(status=GameAnalysis.Status.DONE).update(
        status=GameAnalysis.Status.FAILED, updated=timezone.now()
    )


def analysis_job(analysis: GameAnalysis) -> Job | None:
    """The analysis's latest job (a failed analysis asked again has a new one)."""
    return Job.objects.filter(kind=ANALYSIS_JOB, subject_id=analysis.pk).order_by("-pk").first()


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
    """The API's answer: status, progress and place in line (null unless its job waits);
    the turns once done, why once failed."""
    answer: dict[str, Any] = {
        "status": analysis.status,
        "progress": progress(analysis),
        "place_in_line": None,
    }
    if analysis.status == GameAnalysis.Status.DONE:
        answer["turns"] = [entry.as_json() for entry in turn_entries(analysis)]
        return answer
    if analysis.status == GameAnalysis.Status.FAILED:
        answer["error"] = str(ANALYSIS_FAILED)
        return answer
    job = analysis_job(analysis)
    if job is not None:
        answer["place_in_line"] = jobs.place_in_line(job)
    return answer


ANALYSIS_FAILED = _("The analysis stopped on an error; ask for it again to resume it.")


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
    """The engine's verdict on one position (what the evaluation job stores)."""
    verdict = evaluate(parse_position(text), nodes=nodes or position_nodes())
    return {
        "position": text,
        "eval": round(verdict.expected, 3),
        "best": str(verdict.best) if verdict.best is not None else None,
        "pv": [str(turn) for turn in verdict.pv],
        "depth": verdict.depth,
    }


def request_evaluation(*, position: Position, user: Any) -> Job:
    """Queue the analysis board's evaluation of a position for ``user`` (a visitor: the
    visitors' shared budget); core.jobs' ``Busy`` when a cap is reached."""
    payload = {"position": str(position), "nodes": position_nodes()}
    return jobs.submit(kind=EVALUATION_JOB, owner=user, payload=payload)


def evaluation_slice(piece: jobs.Slice) -> jobs.Outcome:
    """The ``evaluation`` job's work: one position, in one slice."""
    payload = piece.job.payload
    return jobs.done(evaluate_position_now(payload["position"], payload.get("nodes")))


def evaluation_answer(job: Job) -> dict[str, Any]:
    """The API's answer for an evaluation job: ``queued`` (waiting or running; its
    ``place_in_line`` while waiting), ``done`` with the verdict, or ``failed``."""
    status = {Job.State.DONE: "done", Job.State.FAILED: "failed"}.get(
        Job.State(job.state), "queued"
    )
    answer: dict[str, Any] = {
        "id": str(job.public_id),
        "status": status,
        "place_in_line": jobs.place_in_line(job),
    }
    if status == "done":
        answer.update(job.result or {})
    return answer


# --- The kinds of jobs of this app (core.jobs) -----------------------------------------

EVALUATION_JOB, ANALYSIS_JOB = "evaluation", "analysis"


def register_jobs() -> None:
    """Register the evaluation and analysis kinds (AnalysisConfig.ready)."""
    from analysis import tasks

    jobs.register(
        jobs.JobKind(
            name=EVALUATION_JOB,
            task=tasks.evaluate_position,
            work=evaluation_slice,
            slots_setting="JOBS_EVALUATION_SLOTS",
            per_owner_setting="JOBS_EVALUATION_PER_USER",
            anonymous_setting="JOBS_EVALUATION_ANONYMOUS",
            backlog_setting="JOBS_EVALUATION_BACKLOG",
            max_attempts=2,
            typical_seconds=3.0,
            owner_busy=_(
                "You already have %(count)d evaluations waiting or running (at most "
                "%(limit)d); try again when one is done."
            ),
            anonymous_busy=_(
                "Visitors already have %(count)d evaluations waiting or running (at most "
                "%(limit)d between them); try again in %(seconds)d seconds, or log in."
            ),
            full=_(
                "The engine has too many evaluations waiting; try again in %(seconds)d seconds."
            ),
        )
    )
    jobs.register(
        jobs.JobKind(
            name=ANALYSIS_JOB,
            task=tasks.analyse_game,
            work=analysis_slice,
            slots_setting="JOBS_ANALYSIS_SLOTS",
            per_owner_setting="JOBS_ANALYSIS_PER_USER",
            backlog_setting="JOBS_ANALYSIS_BACKLOG",
            typical_seconds=60.0,
            on_failed=analysis_failed,
            owner_busy=_(
                "You already have %(count)d analyses waiting or running (at most "
                "%(limit)d); ask again when one has finished."
            ),
            full=_("Too many analyses are waiting; try again in %(seconds)d seconds."),
        )
    )
