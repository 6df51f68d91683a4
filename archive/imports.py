"""The .agn import: an upload becomes a job that a Celery worker runs in chunks.

* ``create_job`` (the web request) only stores the text and submits a job of the fair
  queue (core.jobs, kind ``import``): a user has at most ``IMPORT_MAX_ACTIVE_JOBS``
  imports waiting or running, the site ``JOBS_IMPORT_BACKLOG`` waiting (else core.jobs'
  ``Busy``: 429 or 503 with Retry-After).
* ``run_job`` (the worker, one slice of about ``JOBS_SLICE_SECONDS`` at a time) first
  reads the file, refuses it whole when it holds more than ``IMPORT_MAX_GAMES`` games or
  names more than ``IMPORT_MAX_NEW_NAMES`` players that have no account yet (nothing is
  stored then), and keeps the games as read (``ImportJob.records``: the text is read
  once, however many slices follow); then imports them in chunks of
  ``IMPORT_CHUNK_GAMES``.  Each chunk is one transaction with the job's progress and
  report, so a killed worker, or the next slice, resumes after the last committed chunk.
* Idempotent by content: a game's ``content_hash`` (its start position, canonical
  turns, result and the two players' names) is unique in ``ImportedGame``; a game
  already there is reported as such, never stored twice, even by two jobs at once.

Report entries keep codes and the engine's English texts; ``entry_text`` and
``job_error_text`` translate them into the reader's language when shown.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models.functions import Lower
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.imported import imported_display_name, imported_player, imported_username
from analysis import tasks as explorer_tasks
from archive.errors import ImportFileRefused
from archive.models import ImportedGame, ImportJob
from core import jobs
from core.models import Job
from engine import STANDARD_START, GameRecord, Position, RecordError
from engine import read_games as read_records
from games.engine_messages import translate_reason
from games.models import Game
from games.models import Turn as TurnRow

User = get_user_model()

DEFAULTS = {
    "IMPORT_MAX_BYTES": 10_000_000,
    "IMPORT_MAX_GAMES": 10_000,
    "IMPORT_MAX_NEW_NAMES": 500,
    "IMPORT_MAX_ACTIVE_JOBS": 2,
    "IMPORT_CHUNK_GAMES": 200,
}


def limit(name: str) -> int:
    """An import limit from config/settings.py, with its default in DEFAULTS."""
    return int(getattr(settings, name, DEFAULTS[name]))


STORED, DUPLICATE, REJECTED = "stored", "duplicate", "rejected"


@dataclass(frozen=True)
class ReportEntry:
    """What became of one game of the file (``number`` counts from 1)."""

    number: int
    status: str
    game_id: int | None = None
    turn: int | None = None
    code: str = ""  # rejected: a key of REJECTIONS
    params: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.number,
            "status": self.status,
            "game_id": self.game_id,
            "turn": self.turn,
            "code": self.code,
            "params": self.params,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReportEntry:
        return cls(
            number=data["game"],
            status=data["status"],
            game_id=data.get("game_id"),
            turn=data.get("turn"),
            code=data.get("code", ""),
            params=data.get("params") or {},
        )


# --- Names and content -----------------------------------------------------------------


def content_hash(*, start: str, turns: Iterable[str], result: str, white: str, black: str) -> str:
    """The identity of an imported game: what makes it this game, not how it was written.

    Start position and turns in canonical form (the engine's ``str``), the result,
    and the players' display names (two games with the same turns by other players
    are other games).  Headers such as dates or events are left out: the same game
    exported twice with other comments or tags is still the same game.
    """
    canonical = "\n".join([start, " ".join(turns), result, white, black])
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def new_names(records: Iterable[GameRecord]) -> set[str]:
    """The shadow usernames (lower case) the records name that have no account yet."""
    wanted = set()
    for record in records:
        for side in ("White", "Black"):
            wanted.add(imported_username(imported_display_name(record.headers.get(side))).lower())
    existing: set[str] = set()
    names = sorted(wanted)
    for start in range(0, len(names), 500):  # SQLite limits the parameters of one query
        existing.update(
            User.objects.annotate(lower=Lower("username"))
            .filter(lower__in=names[start : start + 500])
            .values_list("lower", flat=True)
        )
    return wanted - existing


# --- One game ----------------------------------------------------------------------------


class _Rejected(Exception):
    def __init__(self, code: str, turn: int | None = None, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.turn = turn
        self.params = params


@dataclass(frozen=True)
class _Checked:
    position: Position
    turns: list[str]  # canonical
    result: str
    termination: str


_ILLEGAL_IN_RECORD = re.compile(
    r"^line \d+: .*?: illegal turn '(?P<text>.*?)' in '.*?': (?P<reason>.*)$"
)


def _check(record: GameRecord) -> _Checked:
    """The final position, canonical turns, result and termination of a valid finished
    record; raises _Rejected."""
    if record.errors:
        first = record.errors[0]
        illegal = _ILLEGAL_IN_RECORD.match(first.message)
        if illegal:
            raise _Rejected("illegal_turn", first.turn_number, **illegal.groupdict())
        raise _Rejected("unreadable", first.turn_number, message=first.message)
    try:
        position = record.start_position()
    except ValueError as exc:
        raise _Rejected("bad_start", None, message=str(exc)) from None
    turns = []
    for number, text in enumerate(record.turns, 1):
        try:
            turns.append(str(position.push_text(text)))
        except ValueError as exc:
            reason = getattr(exc, "reason", str(exc))
            raise _Rejected("illegal_turn", number, text=text, reason=reason) from None
    outcome = position.outcome()
    result = record.result
    termination = record.headers.get("Termination", "")
    if outcome is not None:
        if result not in ("*", outcome.result()):
            raise _Rejected("result_contradicts", None, result=result, rules=outcome.result())
        result, termination = outcome.result(), outcome.termination.value
    if result == "*":
        raise _Rejected("not_finished")
    if termination not in Game.Termination.values:
        termination = ""
    return _Checked(position, turns, result, termination)


def _store(record: GameRecord, checked: _Checked, white: Any, black: Any) -> Game:
    start = Position.from_string(record.start)
    opening = Game.Opening.STANDARD
    if record.start != STANDARD_START:
        opening = (
            Game.Opening.PIE if record.headers.get("Opening") == "pie" else Game.Opening.CUSTOM
        )
    game = Game.objects.create(
        white=white,
        black=black,
        opening=opening,
        start_position=record.start,
        position=str(checked.position),
        board="" if start.board.is_standard else str(start.board),
        status=Game.Status.FINISHED,
        result=checked.result,
        termination=checked.termination,
        rated=False,
        imported=True,
        ply=len(record.turns),
        finished=timezone.now(),
    )
    mover_is_white = start.side_to_move.letter == "w"
    rows = []
    for ply, text in enumerate(record.turns, 1):
        rows.append(
            TurnRow(game=game, ply=ply, text=text, player=white if mover_is_white else black)
        )
        mover_is_white = not mover_is_white
    TurnRow.objects.bulk_create(rows)
    return game


def import_record(record: GameRecord, number: int, *, job: ImportJob | None = None) -> ReportEntry:
    """Check one record and store it unless it is invalid or already imported.

    Its own savepoint: a rejected game, or one that a concurrent job stored first (the
    unique content hash), leaves nothing behind.
    """
    try:
        checked = _check(record)
    except _Rejected as exc:
        return ReportEntry(number, REJECTED, turn=exc.turn, code=exc.code, params=exc.params)
    white_name = imported_display_name(record.headers.get("White"))
    black_name = imported_display_name(record.headers.get("Black"))
    digest = content_hash(
        start=str(Position.from_string(record.start)),
        turns=checked.turns,
        result=checked.result,
        white=white_name,
        black=black_name,
    )
    known = ImportedGame.objects.filter(content_hash=digest).values_list("game_id", flat=True)
    if known:
        return ReportEntry(number, DUPLICATE, game_id=known[0])
    try:
        with transaction.atomic():
            game = _store(record, checked, imported_player(white_name), imported_player(black_name))
            ImportedGame.objects.create(content_hash=digest, game=game, job=job)
    except IntegrityError:
        # A concurrent job stored the same game between the look-up and the insert.
        game_id = ImportedGame.objects.filter(content_hash=digest).values_list("game_id", flat=True)
        return ReportEntry(number, DUPLICATE, game_id=game_id.first())
    return ReportEntry(number, STORED, game_id=game.pk)


# --- Reports in the reader's language ------------------------------------------------------


def entry_text(entry: ReportEntry) -> str:
    """What happened to the game, in the active language."""
    if entry.status == STORED:
        return _("stored")
    if entry.status == DUPLICATE:
        return _("already in the archive")
    p = entry.params
    if entry.code == "illegal_turn":
        return _("illegal turn %(turn)s: %(reason)s") % {
            "turn": p.get("text", ""),
            "reason": translate_reason(p.get("reason", "")),
        }
    if entry.code == "result_contradicts":
        return _("the result %(result)s contradicts the final position (%(rules)s)") % p
    if entry.code == "not_finished":
        return _("the game is not finished (result *)")
    if entry.code == "bad_start":
        return _("the start position is invalid: %(reason)s") % {"reason": p.get("message", "")}
    return _("the record cannot be read: %(reason)s") % {
        "reason": translate_reason(p.get("message", ""))
    }


JOB_ERRORS = ("too_many_games", "too_many_names", "internal")


def job_error_text(job: ImportJob) -> str:
    """Why the whole job failed, in the active language ("" when it did not)."""
    p = job.error_params
    if job.error_code == "too_many_games":
        return _(
            "The file holds more than %(max)d games: split it into smaller files. "
            "Nothing was stored."
        ) % {"max": p.get("max", 0)}
    if job.error_code == "too_many_names":
        return _(
            "The file names %(count)d players who are not in the archive yet; "
            "at most %(max)d new players per file. Nothing was stored."
        ) % {"count": p.get("count", 0), "max": p.get("max", 0)}
    if job.error_code:
        return _("The import stopped on an error; the games stored so far are kept.")
    return ""


# --- Jobs ---------------------------------------------------------------------------------


def read_upload(upload: Any) -> str:
    """The text of an uploaded .agn file; ImportFileRefused when too large, not UTF-8, or
    holding a NUL character (in a tag, a comment, anywhere)."""
    max_bytes = limit("IMPORT_MAX_BYTES")
    if upload.size > max_bytes:
        raise ImportFileRefused(
            _("The file is larger than %(size)s: split it into smaller files.")
            % {"size": filesizeformat(max_bytes)}
        )
    try:
        text = str(upload.read().decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ImportFileRefused(_("The file is not UTF-8 text.")) from None
    if "\x00" in text:
        # Valid UTF-8 but no text (PostgreSQL cannot store it: the job's row was a 500).
        raise ImportFileRefused(_("The file contains a NUL character: it is not a text file."))
    return text


IMPORT_JOB = "import"


def create_job(*, owner: Any, text: str, file_name: str = "") -> ImportJob:
    """Store an uploaded .agn text and submit its job (core.jobs; its first slice is sent
    after the commit when a slot is free); ``Busy`` when a cap is reached."""
    with transaction.atomic():
        job = ImportJob.objects.create(
            owner=owner, text=text, file_name=file_name.replace("\x00", "")[:200]
        )
        jobs.submit(kind=IMPORT_JOB, owner=owner, subject_id=job.pk)
    return job


def _record_json(record: GameRecord) -> dict[str, Any]:
    """What the import needs of a record (not its comments), as JSON."""
    return {
        "headers": record.headers,
        "start": record.start,
        "turns": record.turns,
        "result": record.result,
        "index": record.index,
        "errors": [
            {"game_index": e.game_index, "turn_number": e.turn_number, "message": e.message,
             "kind": e.kind}
            for e in record.errors
        ],
    }  # fmt: skip


def _record_from_json(data: dict[str, Any]) -> GameRecord:
    return GameRecord(
        headers=data["headers"],
        start=data["start"],
        turns=data["turns"],
        result=data["result"],
        index=data["index"],
        errors=[RecordError(**error) for error in data["errors"]],
    )


def _read_file(job_id: int) -> str | None:
    """Read the job's file once: refuse it whole (returns "failed") or keep its records
    and their count (returns None)."""
    text = ImportJob.objects.filter(pk=job_id).values_list("text", flat=True).first() or ""
    max_games = limit("IMPORT_MAX_GAMES")
    records = list(islice(read_records(text), max_games + 1))
    if len(records) > max_games:
        return _fail(job_id, "too_many_games", max=max_games)
    resumed = ImportJob.objects.filter(pk=job_id, processed__gt=0).exists()
    fresh = 0 if resumed else len(new_names(records))  # resumed: some names are its own
    if fresh > limit("IMPORT_MAX_NEW_NAMES"):
        return _fail(job_id, "too_many_names", count=fresh, max=limit("IMPORT_MAX_NEW_NAMES"))
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().defer("text", "records").get(pk=job_id)
        if job.is_active and ImportJob.objects.filter(pk=job_id, records__isnull=True).exists():
            job.total = len(records)
            job.records = [_record_json(record) for record in records]
            job.text = ""  # read: the records serve from now on (the report stays)
            job.save(update_fields=["total", "records", "text", "updated"])
    return None


def run_job(*, job_id: int, piece: jobs.Slice | None = None) -> str:
    """Run (or resume) a job; returns its status: ``running`` when the job's ``piece``
    (a slice, core.jobs) is over with games left, else ``done`` or ``failed``.  Safe to
    run twice, even at once."""
    with transaction.atomic():
        found = (
            ImportJob.objects.select_for_update().defer("text", "records").filter(pk=job_id).first()
        )
        if found is None or not found.is_active:
            return found.status if found else "missing"
        found.status = ImportJob.Status.RUNNING
        found.save(update_fields=["status", "updated"])
        read = ImportJob.objects.filter(pk=job_id, records__isnull=False).exists()
    if not read:
        refused = _read_file(job_id)
        if refused:
            return refused
        if piece is not None:
            piece.beat()
    raw = ImportJob.objects.filter(pk=job_id).values_list("records", flat=True).first()
    records = [_record_from_json(data) for data in raw or []]
    chunk = limit("IMPORT_CHUNK_GAMES")
    progressed = not read  # reading the file was this slice's work so far
    while True:
        if piece is not None and progressed and piece.over():
            return ImportJob.Status.RUNNING  # the rest in a later slice
        with transaction.atomic():
            # Not the records each time (read once above): up to megabytes.
            job = ImportJob.objects.select_for_update().defer("text", "records").get(pk=job_id)
            if not job.is_active:
                return job.status
            start = job.processed
            if start >= len(records):
                job.status = ImportJob.Status.DONE
                job.finished = timezone.now()
                job.records = None  # imported: the records have served (the report stays)
                job.save(update_fields=["status", "finished", "records", "updated"])
                return job.status
            entries = [
                import_record(record, number, job=job)
                for number, record in enumerate(records[start : start + chunk], start + 1)
            ]
            _index_for_explorer(entries)
            job.report = [*job.report, *(entry.as_json() for entry in entries)]
            job.processed = start + len(entries)
            job.stored += sum(entry.status == STORED for entry in entries)
            job.duplicates += sum(entry.status == DUPLICATE for entry in entries)
            job.rejected += sum(entry.status == REJECTED for entry in entries)
            job.save(
                update_fields=[
                    "report", "processed", "stored", "duplicates", "rejected", "updated"
                ]
            )  # fmt: skip
        progressed = True
        if piece is not None:
            piece.beat()


def _fail(job_id: int, code: str, **params: Any) -> str:
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().defer("text", "records").get(pk=job_id)
        if job.is_active:
            job.status = ImportJob.Status.FAILED
            job.error_code = code
            job.error_params = params
            job.finished = timezone.now()
            job.text = ""
            job.records = None  # nothing more will be read from them
            fields = ["status", "error_code", "error_params", "finished", "text", "records"]
            job.save(update_fields=[*fields, "updated"])
    return ImportJob.Status.FAILED


def fail_job(*, job_id: int) -> None:
    """Mark a job failed after an unexpected error (its job's last attempt)."""
    _fail(job_id, "internal")


# --- The job of the fair queue (core.jobs) ----------------------------------------------------


def import_slice(piece: jobs.Slice) -> jobs.Outcome:
    """The ``import`` job's work: one slice of :func:`run_job`."""
    status = run_job(job_id=int(piece.job.subject_id or 0), piece=piece)
    if status == ImportJob.Status.RUNNING:
        return jobs.MORE
    if status == ImportJob.Status.DONE:
        return jobs.done()
    return jobs.failed(f"import {status}")


def import_failed(job: Job) -> None:
    """The job gave up (core.jobs: an error or a lost worker, again and again)."""
    if job.subject_id is not None:
        fail_job(job_id=job.subject_id)


def import_place(job: ImportJob) -> int | None:
    """The import's place in line while its job waits (None otherwise)."""
    queued = Job.objects.filter(kind=IMPORT_JOB, subject_id=job.pk).order_by("-pk").first()
    return jobs.place_in_line(queued) if queued is not None else None


def register_jobs() -> None:
    """Register the import kind of core.jobs (ArchiveConfig.ready)."""
    from archive import tasks

    jobs.register(
        jobs.JobKind(
            name=IMPORT_JOB,
            task=tasks.run_import_job,
            work=import_slice,
            slots_setting="JOBS_IMPORT_SLOTS",
            per_owner_setting="IMPORT_MAX_ACTIVE_JOBS",
            backlog_setting="JOBS_IMPORT_BACKLOG",
            typical_seconds=60.0,
            on_failed=import_failed,
            owner_busy=gettext_lazy(
                "You already have %(count)d imports waiting or running (the limit is "
                "%(limit)d); try again when one has finished."
            ),
            full=gettext_lazy("Too many imports are waiting; try again in %(seconds)d seconds."),
        )
    )


# --- Without a job (tests, the command line) -------------------------------------------------


@dataclass(frozen=True)
class Rejection:
    game_number: int
    turn_number: int | None
    reason: str


@dataclass
class ImportReport:
    stored: list[Game] = field(default_factory=list)
    duplicates: list[int] = field(default_factory=list)  # numbers in the file
    rejected: list[Rejection] = field(default_factory=list)


def _index_for_explorer(entries: Iterable[ReportEntry]) -> None:
    """Imported games finish without game_finished: the opening explorer is told here
    (one job per chunk, sent when the chunk commits)."""
    stored = [entry.game_id for entry in entries if entry.status == STORED and entry.game_id]
    if stored and settings.EXPLORER_INDEX_ON_FINISH:
        explorer_tasks.index_games.delay(stored)


def import_games(*, user: Any, text: str) -> ImportReport:
    """Import an .agn text at once, in this process (the site queues a job instead)."""
    report = ImportReport()
    entries = []
    for number, record in enumerate(read_records(text), 1):
        entry = import_record(record, number)
        entries.append(entry)
        if entry.status == STORED and entry.game_id is not None:
            report.stored.append(Game.objects.get(pk=entry.game_id))
        elif entry.status == DUPLICATE:
            report.duplicates.append(number)
        else:
            report.rejected.append(Rejection(number, entry.turn, entry_text(entry)))
    _index_for_explorer(entries)
    return report
