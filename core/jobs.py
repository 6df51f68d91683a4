"""A fair queue for work people ask for in bulk: every kind of job is served in turns
between its owners, capped per owner and in total, and run by slices.

Feature apps register their kinds (:class:`JobKind`) from ``AppConfig.ready``: the
analysis board's ``evaluation`` and the game ``analysis`` (analysis.apps), the .agn
``import`` (archive.apps).  A job's life (states of :class:`core.models.Job`):

* :func:`submit` — refused with ``Busy`` (core.errors; code ``busy``, ``Retry-After``)
  when the owner already has the kind's per-owner cap waiting or running (429), or when
  the kind's backlog of waiting jobs is full (503); else ``waiting`` in its round (below),
  then :func:`pump`.
* :func:`pump` — fills the kind's free slots (how many run at once: the kind's worker
  processes) with waiting jobs in fair order, marks them ``running`` and sends each its
  task after the commit.  So the broker never holds more of a kind's messages than its
  workers can take, and the order is decided here, not by the broker.
* :func:`run_slice` — the task's body: the kind's work runs one slice (about
  ``JOBS_SLICE_SECONDS``) and says whether more is left.  "More" puts the job back to
  ``waiting`` in its owner's next round, so a long job never keeps a slot while others
  wait; ``done`` or ``failed`` end it.  Either way the kind is pumped again.
* :func:`sweep` — beat, every minute: a slice whose heartbeat is older than
  ``JOBS_LEASE_SECONDS`` lost its worker; the job waits again (one attempt counted), or
  fails after the kind's ``max_attempts`` (its domain row too).  A slice whose message no
  worker took within the lease is sent again (no attempt counted).  Then every kind is
  pumped, and finished jobs older than ``JOBS_KEEP_HOURS`` are deleted.

The fair order is round robin between owners, kept as numbered rounds (start-time fair
queueing with every job costing one): the kind's clock (``JobQueue.clock``) is the round
of the last job started; a job enters waiting in round ``max(clock, its owner's last
round + 1)``, and jobs start by round, then by when they became ready.  So whoever has
one job waiting starts before anybody's next one, an owner who was just served (or whose
long job just finished a slice) waits for everybody else's turn, and a newcomer joins the
current round.  (Counting only the owner's running jobs would forget a turn as soon as
it ended: with one slot, the first owner's jobs would all run first.)

Every change of a kind's jobs' states first locks the kind's :class:`JobQueue` row, so
two requests cannot both pass a cap and two pumps cannot fill one slot twice.  A message
carries its slice's number: one that arrives late (its slice was given up and sent
again) finds another number and does nothing.
"""

from __future__ import annotations

import logging
import math
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import Busy, OwnerBusy, QueueFull
from core.models import Job, JobQueue

__all__ = ["Busy", "OwnerBusy", "QueueFull"]  # the refusals, defined in core.errors

logger = logging.getLogger(__name__)

ANONYMOUS = "anonymous"  # the owner key every visitor shares
ACTIVE = (Job.State.WAITING, Job.State.RUNNING)
# Retry-After stays within these bounds, whatever the history says.
RETRY_AFTER_MIN, RETRY_AFTER_MAX = 1, 3600


class JobLost(Exception):
    """The running slice is no longer this worker's (the sweep gave it to another)."""


@dataclass(frozen=True)
class Outcome:
    """What a slice of work says: more is left, or the job is done (with its result),
    or it failed (``error``; the work has marked its domain row)."""

    more: bool = False
    result: Any = None
    error: str = ""


MORE = Outcome(more=True)


def done(result: Any = None) -> Outcome:
    return Outcome(result=result)


def failed(error: str) -> Outcome:
    return Outcome(error=error or "failed")


@dataclass(frozen=True)
class Slice:
    """One slice of a job, as its kind's work function gets it."""

    job: Job
    number: int
    deadline: float  # time.monotonic(): stop at the next unit of work after it

    def over(self) -> bool:
        return time.monotonic() >= self.deadline

    def beat(self) -> None:
        """Tell the sweep this slice is alive (after each unit of work, outside any
        transaction); raises :class:`JobLost` if the slice was given to another worker."""
        heartbeat(self.job.pk, self.number)


OWNER_BUSY = _(
    "You already have %(count)d jobs of this kind waiting or running (at most %(limit)d); "
    "try again when one has finished."
)
ANONYMOUS_BUSY = _(
    "Visitors already have %(count)d jobs of this kind waiting or running (at most "
    "%(limit)d between them); try again in %(seconds)d seconds, or log in."
)
FULL = _("Too many jobs of this kind are waiting; try again in %(seconds)d seconds.")


@dataclass(frozen=True)
class JobKind:
    """A kind of job.  Its numbers are the names of settings (read when used, so they
    are validated at start in config/settings.py and tests can change them)."""

    name: str
    # The Celery task that runs one slice: task(job_id, slice_number) -> run_slice(...).
    task: Any
    work: Callable[[Slice], Outcome]
    slots_setting: str
    per_owner_setting: str
    backlog_setting: str
    # Visitors' jobs, all under one owner key; None: only accounts may submit.
    anonymous_setting: str | None = None
    max_attempts: int = 3
    # Retry-After's guess of a job's length until some job of the kind has finished.
    typical_seconds: float = 30.0
    # Marks the domain row failed when the job fails without its work saying so (a
    # worker lost max_attempts times, an exception); runs in the job's transaction.
    on_failed: Callable[[Job], None] | None = None
    # Refusal messages: %(count)d / %(limit)d (the owner's), %(seconds)d (Retry-After).
    owner_busy: Any = OWNER_BUSY
    anonymous_busy: Any = ANONYMOUS_BUSY
    full: Any = FULL

    def slots(self) -> int:
        return int(getattr(settings, self.slots_setting))

    def per_owner(self, key: str) -> int:
        if key == ANONYMOUS:
            assert self.anonymous_setting is not None
            return int(getattr(settings, self.anonymous_setting))
        return int(getattr(settings, self.per_owner_setting))

    def backlog(self) -> int:
        return int(getattr(settings, self.backlog_setting))


_KINDS: dict[str, JobKind] = {}


def register(kind: JobKind) -> None:
    """Make a kind known (an app's ``ready``); registering it again replaces it."""
    _KINDS[kind.name] = kind


def get_kind(name: str) -> JobKind:
    try:
        return _KINDS[name]
    except KeyError:
        raise LookupError(f"no job kind {name!r} is registered") from None


def kinds() -> list[JobKind]:
    return list(_KINDS.values())


def owner_key(owner: Any) -> str:
    """The round robin's name for an owner: ``user:<id>``, or ``anonymous``."""
    if owner is None or not getattr(owner, "is_authenticated", False):
        return ANONYMOUS
    return f"user:{owner.pk}"


def slice_seconds() -> float:
    return float(settings.JOBS_SLICE_SECONDS)


def lease_seconds() -> float:
    return float(settings.JOBS_LEASE_SECONDS)


# --- Order ------------------------------------------------------------------------------


def fair_order(waiting: Iterable[tuple[int, int, datetime]]) -> list[int]:
    """Waiting jobs ``(id, round, ready_at)`` in the order they will start: by round, then
    by when they became ready (see the module docstring).

    >>> from datetime import datetime as at
    >>> fair_order([(1, 1, at(2026, 1, 1, 0, 0, 1)), (2, 0, at(2026, 1, 1, 0, 0, 3)),
    ...             (3, 0, at(2026, 1, 1, 0, 0, 2))])
    [3, 2, 1]
    """
    return [job_id for job_id, _round, _ready in sorted(waiting, key=lambda row: row[1:])]


def _waiting_rows(kind: str) -> list[tuple[int, int, datetime]]:
    rows = Job.objects.filter(kind=kind, state=Job.State.WAITING).values_list(
        "pk", "round", "ready_at"
    )
    return list(rows)


def _next_round(kind: str, key: str, clock: int) -> int:
    """The round a job of ``key`` enters now: the current one, or the one after the
    owner's last job still waiting or running."""
    last = Job.objects.filter(kind=kind, owner_key=key, state__in=ACTIVE).aggregate(
        last=Max("round")
    )["last"]
    return clock if last is None else max(clock, int(last) + 1)


def places(kind: str) -> dict[int, int]:
    """{job id: its place in line (1: it starts next)} for the kind's waiting jobs."""
    order = fair_order(_waiting_rows(kind))
    return {job_id: place for place, job_id in enumerate(order, 1)}


def place_in_line(job: Job) -> int | None:
    """Where a waiting job stands (1: next to start); None when it is not waiting."""
    if job.state != Job.State.WAITING:
        return None
    return places(job.kind).get(job.pk)


def jobs_ahead_text(place: int | None) -> str:
    """ "Jobs ahead of yours: N" for a page, in the active language ("" when not waiting).
    (A count after a colon: no plural forms, so pages' scripts can fill it in too.)"""
    if place is None:
        return ""
    if place == 1:
        return str(_("Yours is next."))
    return str(_("Jobs ahead of yours: %(count)s") % {"count": place - 1})


# --- Submit and dispatch ---------------------------------------------------------------------


def lock(name: str) -> JobQueue:
    """Take the lock named ``name`` until the caller's transaction ends: a kind's (every
    change of its jobs' states), or another cap's (bots.services: running bot matches)."""
    row: JobQueue | None = JobQueue.objects.select_for_update().filter(kind=name).first()
    if row is None:
        JobQueue.objects.get_or_create(kind=name)  # its first use
        row = JobQueue.objects.select_for_update().get(kind=name)
    assert row is not None
    return row


def _lock(kind: JobKind) -> JobQueue:
    return lock(kind.name)


def submit(
    *,
    kind: str,
    owner: Any = None,
    subject_id: int | None = None,
    payload: dict[str, Any] | None = None,
) -> Job:
    """Queue a job for ``owner`` (None or an anonymous user: the visitors' shared budget);
    raises :class:`OwnerBusy` or :class:`QueueFull`.  It starts at once when a slot is
    free (its task is sent when the caller's transaction commits)."""
    spec = get_kind(kind)
    key = owner_key(owner)
    if key == ANONYMOUS and spec.anonymous_setting is None:
        raise ValueError(f"{kind} jobs need an owner")
    with transaction.atomic():
        queue = _lock(spec)
        mine = Job.objects.filter(kind=kind, owner_key=key, state__in=ACTIVE).count()
        limit = spec.per_owner(key)
        if mine >= limit:
            seconds = _owner_retry_after(spec, key)
            template = spec.anonymous_busy if key == ANONYMOUS else spec.owner_busy
            raise OwnerBusy(
                template % {"count": mine, "limit": limit, "seconds": seconds},
                retry_after=seconds,
            )
        waiting = Job.objects.filter(kind=kind, state=Job.State.WAITING).count()
        if waiting >= spec.backlog():
            seconds = _backlog_retry_after(spec)
            raise QueueFull(spec.full % {"seconds": seconds}, retry_after=seconds)
        job: Job = Job.objects.create(
            kind=kind,
            owner=owner if key != ANONYMOUS else None,
            owner_key=key,
            subject_id=subject_id,
            payload=payload or {},
            round=_next_round(kind, key, queue.clock),
            ready_at=timezone.now(),
        )
        _pump(spec, queue)
    job.refresh_from_db()
    return job


def pump(kind: str) -> list[int]:
    """Start waiting jobs of ``kind`` in the free slots; returns their ids."""
    spec = get_kind(kind)
    with transaction.atomic():
        return _pump(spec, _lock(spec))


def _pump(spec: JobKind, queue: JobQueue) -> list[int]:
    running = Job.objects.filter(kind=spec.name, state=Job.State.RUNNING).count()
    free = spec.slots() - running
    if free <= 0:
        return []
    waiting = _waiting_rows(spec.name)
    chosen = fair_order(waiting)[:free]
    if not chosen:
        return []
    rounds = {job_id: job_round for job_id, job_round, _ready in waiting}
    slices = dict(Job.objects.filter(pk__in=chosen).values_list("pk", "slices"))
    now = timezone.now()
    for job_id in chosen:
        number = slices[job_id] + 1
        Job.objects.filter(pk=job_id).update(
            state=Job.State.RUNNING, slices=number, dispatched=now, heartbeat=None
        )
        # Sent when the transaction commits (core.tasks.AfterCommitTask).
        spec.task.apply_async((job_id, number))
    queue.clock = max(queue.clock, *(rounds[job_id] for job_id in chosen))
    queue.save(update_fields=["clock"])
    return chosen


# --- Running a slice (the worker) ---------------------------------------------------------------


def heartbeat(job_id: int, number: int) -> None:
    alive = Job.objects.filter(pk=job_id, state=Job.State.RUNNING, slices=number).update(
        heartbeat=timezone.now()
    )
    if not alive:
        raise JobLost(f"job {job_id}: slice {number} is no longer running here")


def run_slice(job_id: int, number: int) -> str:
    """Run slice ``number`` of a job (its kind's task calls this); returns what happened:
    ``stale`` (not this slice's turn any more), ``more``, ``done``, ``failed``, ``lost``
    or ``error`` (an exception: the job waits again, or fails after its attempts)."""
    now = timezone.now()
    claimed = Job.objects.filter(pk=job_id, state=Job.State.RUNNING, slices=number).update(
        heartbeat=now
    )
    if not claimed:
        return "stale"
    Job.objects.filter(pk=job_id, started__isnull=True).update(started=now)
    job = Job.objects.get(pk=job_id)
    spec = get_kind(job.kind)
    piece = Slice(job=job, number=number, deadline=time.monotonic() + slice_seconds())
    try:
        outcome = spec.work(piece)
    except JobLost:
        logger.warning("%s job %s: slice %s was given to another worker", job.kind, job_id, number)
        return "lost"
    except Exception as exc:  # any failure of the work counts as an attempt
        logger.exception("%s job %s: slice %s failed", job.kind, job_id, number)
        _give_back(spec, job_id, number, f"{type(exc).__name__}: {exc}"[:500], lost=False)
        return "error"
    _finish(spec, job_id, number, outcome)
    return "more" if outcome.more else ("failed" if outcome.error else "done")


def _finish(spec: JobKind, job_id: int, number: int, outcome: Outcome) -> None:
    now = timezone.now()
    with transaction.atomic():
        queue = _lock(spec)
        mine = Job.objects.filter(pk=job_id, state=Job.State.RUNNING, slices=number)
        if outcome.more:
            key = mine.values_list("owner_key", flat=True).first()
            if key is not None:  # to its owner's next round: everybody else's turn first
                later = _next_round(spec.name, key, queue.clock)
                mine.update(state=Job.State.WAITING, round=later, ready_at=now, heartbeat=None)
        elif outcome.error:
            mine.update(state=Job.State.FAILED, error=outcome.error[:500], finished=now)
        else:
            mine.update(state=Job.State.DONE, result=outcome.result, finished=now)
        _pump(spec, queue)


def _give_back(spec: JobKind, job_id: int, number: int | None, reason: str, *, lost: bool) -> None:
    """A slice that ended badly: the job waits again, or fails after its attempts (and
    its domain row with it).  ``number`` None: whatever slice is running (the sweep)."""
    with transaction.atomic():
        queue = _lock(spec)
        _retry_or_fail(spec, queue, job_id, number, reason, lost=lost)
        _pump(spec, queue)


def _retry_or_fail(
    spec: JobKind, queue: JobQueue, job_id: int, number: int | None, reason: str, *, lost: bool
) -> None:
    rows = Job.objects.select_for_update().filter(pk=job_id, state=Job.State.RUNNING)
    if number is not None:
        rows = rows.filter(slices=number)
    job = rows.first()
    if job is None:
        return
    job.attempts += 1
    job.heartbeat = None
    if job.attempts >= spec.max_attempts:
        job.state = Job.State.FAILED
        job.finished = timezone.now()
        job.error = f"{reason} ({job.attempts} attempts)"[:500]
        job.save(update_fields=["attempts", "heartbeat", "state", "finished", "error"])
        if spec.on_failed is not None:
            spec.on_failed(job)
        return
    job.state = Job.State.WAITING
    if not lost:  # a job whose work raised waits for everybody else's turn; a lost one
        # (its worker died) keeps its round
        job.round = _next_round(spec.name, job.owner_key, queue.clock)
        job.ready_at = timezone.now()
    job.save(update_fields=["attempts", "heartbeat", "state", "round", "ready_at"])


# --- The sweep ------------------------------------------------------------------------------------


def sweep() -> dict[str, int]:
    """Give lost slices back (see the module docstring), pump every kind, delete old
    finished jobs.  Returns counts: ``lost``, ``resent``, ``started``, ``deleted``."""
    now = timezone.now()
    cutoff = now - timedelta(seconds=lease_seconds())
    counts = Counter({"lost": 0, "resent": 0, "started": 0, "deleted": 0})
    for spec in kinds():
        with transaction.atomic():
            queue = _lock(spec)
            running = Job.objects.filter(kind=spec.name, state=Job.State.RUNNING)
            # Sent, never taken: a message lost (the broker was down at the commit).
            counts["resent"] += running.filter(
                heartbeat__isnull=True, dispatched__lt=cutoff
            ).update(state=Job.State.WAITING)
            for job_id in running.filter(heartbeat__lt=cutoff).values_list("pk", flat=True):
                _retry_or_fail(spec, queue, job_id, None, "the worker stopped answering", lost=True)
                counts["lost"] += 1
            counts["started"] += len(_pump(spec, queue))
    keep = timedelta(hours=settings.JOBS_KEEP_HOURS)
    counts["deleted"] = Job.objects.filter(
        state__in=(Job.State.DONE, Job.State.FAILED), finished__lt=now - keep
    ).delete()[0]
    return dict(counts)


# --- Retry-After ------------------------------------------------------------------------------------


def typical_seconds(spec: JobKind) -> float:
    """A job's usual length from its first slice's start to its end: the median of the
    kind's last 20 finished jobs (the kind's own guess before any)."""
    recent = (
        Job.objects.filter(kind=spec.name, state=Job.State.DONE, started__isnull=False)
        .order_by("-finished")
        .values_list("started", "finished")[:20]
    )
    lengths = [
        (end - start).total_seconds()
        for start, end in recent
        if start is not None and end is not None
    ]
    return max(1.0, statistics.median(lengths)) if lengths else spec.typical_seconds


def _bounded(seconds: float) -> int:
    return int(min(RETRY_AFTER_MAX, max(RETRY_AFTER_MIN, math.ceil(seconds))))


def _owner_retry_after(spec: JobKind, key: str) -> int:
    """About when the owner's first job ends: a running one's rest, else the rounds of
    the kind's slots before its place comes, each a typical job long."""
    length = typical_seconds(spec)
    now = timezone.now()
    mine = Job.objects.filter(kind=spec.name, owner_key=key, state__in=ACTIVE)
    starts = [
        start
        for start in mine.filter(state=Job.State.RUNNING).values_list("started", flat=True)
        if start is not None
    ]
    if starts:
        return _bounded(length - (now - min(starts)).total_seconds())
    order = places(spec.name)
    best = min((order.get(job_id, 1) for job_id in mine.values_list("pk", flat=True)), default=1)
    return _bounded(length * (math.ceil(best / spec.slots()) + 1))


def _backlog_retry_after(spec: JobKind) -> int:
    """About when a waiting job starts (and frees a place): a slot frees every typical
    job length divided by the slots."""
    return _bounded(typical_seconds(spec) / spec.slots())
