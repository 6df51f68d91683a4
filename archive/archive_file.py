"""A whole database's games (and tournaments) as one portable JSON Lines file.

``export_archive`` writes, and ``import_archive`` reads back, one JSON object per
line: a header line, then ``{"model": "<app>.<model>", "fields": {…}}`` records,
models in dependency order, rows in a fixed order, keys sorted.  Exporting,
importing into an empty database and exporting again gives the same bytes.

What travels: players (by username; never passwords, e-mail addresses or
tokens), their profiles (ratings…), games, turns and results, and the
tournaments app's tournaments, participants, rounds and pairings.  Games and tournament rows keep their ids (URLs and pairings refer to
them); players are matched by username.  Challenges, API tokens and the event
stream are live state and are not archived.

An import runs in one transaction and replays every imported game through the
engine before committing: a file whose turns do not replay is refused whole.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import DataError, IntegrityError, connection, models, transaction

from accounts.models import Profile
from games.models import Game, Turn
from tournaments.models import Pairing, Participant, Round, Tournament

FORMAT = "adaptoid-archive"
# 2: profiles under accounts.profile; tournaments with their whole time control.
VERSION = 2
# What a version-1 file (main before the redesign) says differently, read as version 2:
V1_LABELS = {"games.profile": "accounts.profile"}
# Fields version 1 did not have: they take their default (a per-turn clock).
V1_MISSING = {"tournaments.tournament": {"clock_kind", "clock_increment", "weekend_pause"}}


class ArchiveError(ValueError):
    """The file is not an archive this code can import (the message names the line)."""


@dataclass(frozen=True)
class Part:
    model: type[models.Model]
    keep_pk: bool  # rows others refer to by id keep it
    order: tuple[str, ...]
    # Fields left out: ids of rows that are not archived, secrets, personal data.
    exclude: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The file's name for the model: "app_label.model_name"."""
        return self.model._meta.label_lower


_USER_FIELDS = ("username", "is_active", "date_joined")

PARTS = (
    Part(Profile, keep_pk=False, order=("user__username",)),
    Part(Game, keep_pk=True, order=("pk",)),
    Part(Turn, keep_pk=False, order=("game_id", "ply")),
    Part(Tournament, keep_pk=True, order=("pk",)),
    Part(Participant, keep_pk=True, order=("pk",)),
    Part(Round, keep_pk=True, order=("pk",)),
    Part(Pairing, keep_pk=True, order=("pk",)),
)


def _user_model() -> type[User]:
    return get_user_model()


def _is_user_fk(field: models.Field) -> bool:
    return field.is_relation and field.related_model is _user_model()


def _fields(part: Part, model: type[models.Model]) -> list[models.Field]:
    return [
        field
        for field in model._meta.concrete_fields
        if field.name not in part.exclude and (part.keep_pk or not field.primary_key)
    ]


def _dump_value(field: models.Field, value: Any, usernames: dict[int, str]) -> Any:
    if value is None:
        return None
    if _is_user_fk(field):
        return usernames[value]
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, str | int | float | bool):
        return value
    return str(value)  # Decimal, UUID…: their text form, which to_python reads back


def _load_value(field: models.Field, value: Any, user_ids: dict[str, int]) -> Any:
    if value is _DEFAULT:
        return field.get_default()
    if value is None:
        return None
    if _is_user_fk(field):
        try:
            return user_ids[value]
        except KeyError:
            raise ArchiveError(f"unknown player {value!r}") from None
    if isinstance(field, models.DateTimeField):
        return datetime.datetime.fromisoformat(value)
    if isinstance(field, models.DateField):
        return datetime.date.fromisoformat(value)
    if isinstance(field, models.TimeField):
        return datetime.time.fromisoformat(value)
    return field.to_python(value)


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def export_lines() -> Iterator[str]:
    """The archive, line by line (streamed: rows are read in chunks)."""
    User = _user_model()
    usernames = dict(User.objects.values_list("pk", "username"))
    yield _line({"format": FORMAT, "version": VERSION})
    for user in User.objects.order_by("username").values(*_USER_FIELDS).iterator():
        yield _line({"model": "auth.user", "fields": _dump_user(user)})
    for part in PARTS:
        model = part.model
        fields = _fields(part, model)
        rows = model._default_manager.order_by(*part.order).values_list(
            *(field.attname for field in fields)
        )
        for row in rows.iterator(chunk_size=2000):
            values = {
                field.name: _dump_value(field, value, usernames)
                for field, value in zip(fields, row, strict=True)
            }
            yield _line({"model": part.label, "fields": values})


def _dump_user(user: dict[str, Any]) -> dict[str, Any]:
    return {
        "username": user["username"],
        "is_active": user["is_active"],
        "date_joined": user["date_joined"].isoformat(),
    }


def export_archive(handle: IO[str]) -> int:
    """Write the archive to a text handle; returns the number of records."""
    count = -1
    for count, line in enumerate(export_lines()):
        handle.write(line)
    return count


@contextmanager
def _raw_timestamps(models_: Iterable[type[models.Model]]) -> Iterator[None]:
    """Keep the archived `created`/`updated` values instead of stamping "now"."""
    saved: list[tuple[models.DateField | models.TimeField, bool, bool]] = []
    for model in models_:
        for field in model._meta.concrete_fields:
            if not isinstance(field, models.DateField | models.TimeField):
                continue
            if field.auto_now or field.auto_now_add:
                saved.append((field, field.auto_now, field.auto_now_add))
                field.auto_now = field.auto_now_add = False
    try:
        yield
    finally:
        for field, auto_now, auto_now_add in saved:
            field.auto_now, field.auto_now_add = auto_now, auto_now_add


# A field a version-1 file did not have: the model's default is taken.
_DEFAULT = object()


def _records(handle: Iterable[str]) -> Iterator[tuple[int, str, dict[str, Any]]]:
    version = VERSION
    for number, line in enumerate(handle, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ArchiveError(f"line {number}: not JSON ({exc.msg})") from None
        if number == 1:
            if not isinstance(record, dict) or record.get("format") != FORMAT:
                raise ArchiveError("line 1: not an Adaptoid archive")
            if record.get("version") not in (1, VERSION):
                raise ArchiveError(f"line 1: archive version {record.get('version')!r} unknown")
            version = record["version"]
            continue
        if (
            not isinstance(record, dict)
            or not isinstance(record.get("model"), str)
            or not isinstance(record.get("fields"), dict)
        ):
            raise ArchiveError(f'line {number}: expected {{"model": …, "fields": {{…}}}}')
        label: str = record["model"]
        fields = record["fields"]
        if version == 1:
            label = V1_LABELS.get(label, label)
            fields = {**fields, **dict.fromkeys(V1_MISSING.get(label, ()), _DEFAULT)}
        yield number, label, fields


def import_archive(handle: Iterable[str]) -> dict[str, int]:
    """Load an archive into a database with no games yet; returns rows created per model.

    Raises ArchiveError (nothing is stored) for a malformed file, a database that
    already has games (or tournaments), or games whose turns do not replay.
    """
    parts = {part.label: part for part in PARTS}
    counts: dict[str, int] = {}
    try:
        _import_records(handle, parts, counts)
    except (IntegrityError, DataError) as exc:
        # Duplicate ids, a turn of a game that is not in the file…: nothing was stored.
        raise ArchiveError(f"the archive does not fit together: {exc}") from None
    return counts


def _import_records(handle: Iterable[str], parts: dict[str, Part], counts: dict[str, int]) -> None:
    from archive.verification import verify_games

    User = _user_model()
    with transaction.atomic(), _raw_timestamps(part.model for part in parts.values()):
        for each in parts.values():
            if each.model is not Profile and each.model._default_manager.exists():
                raise ArchiveError(
                    f"the database already has {each.label} rows: import into one with no games"
                )
        user_ids = dict(User.objects.values_list("username", "pk"))
        pending: dict[str, list[models.Model]] = {}
        for number, label, values in _records(handle):
            if label == "auth.user":
                _import_user(number, values, user_ids)
                counts[label] = counts.get(label, 0) + 1
                continue
            part = parts.get(label)
            if part is None:
                raise ArchiveError(f"line {number}: unknown model {label!r}")
            model = part.model
            fields = {field.name: field for field in _fields(part, model)}
            if set(values) != set(fields):
                raise ArchiveError(
                    f"line {number}: {label} fields {sorted(values)} but expected {sorted(fields)}"
                )
            try:
                kwargs = {
                    fields[name].attname: _load_value(fields[name], value, user_ids)
                    for name, value in values.items()
                }
            except (ArchiveError, ValueError, TypeError, ValidationError) as exc:
                raise ArchiveError(f"line {number}: {exc}") from None
            row = model(**kwargs)
            try:
                # Lengths, choices, blanks: what PostgreSQL would refuse (or SQLite keep).
                row.clean_fields(exclude=[f.name for f in fields.values() if f.is_relation])
            except ValidationError as exc:
                raise ArchiveError(f"line {number}: {exc.message_dict}") from None
            if model is Profile:
                # Every player already got a profile when created: update it.
                Profile.objects.update_or_create(user_id=kwargs.pop("user_id"), defaults=kwargs)
            else:
                pending.setdefault(label, []).append(row)
            counts[label] = counts.get(label, 0) + 1
        for label, part in parts.items():  # dependency order
            rows = pending.get(label, [])
            if rows:
                part.model._default_manager.bulk_create(rows, batch_size=1000)
        _reset_sequences([part.model for part in parts.values() if part.keep_pk])
        report = verify_games()
        if not report.ok:
            raise ArchiveError(
                "games do not replay: " + "; ".join(str(m) for m in report.mismatches[:5])
            )


def _import_user(number: int, values: dict[str, Any], user_ids: dict[str, int]) -> None:
    User = _user_model()
    username = values.get("username")
    if not isinstance(username, str) or not username:
        raise ArchiveError(f"line {number}: a player needs a username")
    if username in user_ids:
        return  # the same player already exists here: the games attach to them
    try:
        date_joined = datetime.datetime.fromisoformat(values["date_joined"])
        is_active = bool(values["is_active"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ArchiveError(f"line {number}: bad player record ({exc})") from None
    user = User(username=username, is_active=is_active, date_joined=date_joined)
    user.set_unusable_password()  # passwords never travel: the player resets theirs
    user.save()
    Profile.objects.get_or_create(user=user)
    user_ids[username] = user.pk


def _reset_sequences(models_: list[type[models.Model]]) -> None:
    """After inserting explicit ids, move PostgreSQL's id sequences past them."""
    statements = connection.ops.sequence_reset_sql(no_style(), models_)
    if statements:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
