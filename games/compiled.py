"""Querysets compiled to SQL once per process, then run with new values.

Django turns a queryset into SQL on every evaluation.  For the hottest queries of
the site (the bearer-token lookup of every API request, the locked game with both
players and their profiles of every turn) that compilation costs more CPU than the
database spends running the query.  A ``CompiledQuery`` builds its queryset once
with marker values, keeps the SQL text and the compiler's column map, and afterwards
only swaps the marker values for the real ones; rows become model instances (with
their select_related objects) exactly as Django's own iterator makes them.

Only simple shapes qualify: every argument must reach the SQL as one parameter,
unchanged (``pk=…``, ``prefix=…``), which ``CompiledQuery`` checks when it compiles.

``CompiledInsert`` and ``CompiledUpdate`` do the same for the rows a turn writes: the
statement is built once, the values are prepared by the fields as ``save()`` does.
"""

from __future__ import annotations

import datetime
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DatabaseError, IntegrityError, connections, transaction
from django.db.models import Model, QuerySet
from django.db.models.fields import AutoFieldMixin
from django.db.models.query import (
    FlatValuesListIterable,
    ModelIterable,
    get_related_populators,
)
from django.db.models.signals import post_save, pre_save
from django.db.models.sql.compiler import SQLCompiler
from django.db.models.sql.query import Query
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)


def _sentinel(kind: type, index: int) -> Any:
    """A value of the argument's type that no caller passes: where it lands among the
    SQL parameters is where the caller's value goes.  (The field's lookup prepares
    the value, so it must be a real int or str, not a placeholder object.)"""
    if kind is int:
        return -2_147_480_000 - index
    if kind is str:
        return f"\x1ecompiled-argument-{index}\x1e"
    raise TypeError(f"CompiledQuery takes int or str arguments, not {kind!r}")


@dataclass(frozen=True)
class _Compiled:
    sql: str
    # For each SQL parameter: (the caller's argument index, None) or (-1, a constant).
    params: tuple[tuple[int, Any], ...]
    query: Query
    # Converters by column (JSON fields…); the backend's converters keep no state.
    converters: dict[int, Any]
    # For model instances: the model, its columns in a row, select_related populators
    # (they keep no per-row state).  None for a flat values_list.
    model: type[Model] | None
    model_columns: slice
    attnames: list[str]
    populators: list[Any]
    annotations: tuple[tuple[str, int], ...] = ()  # (attribute, column) of .annotate()


class _CompiledSelect:
    """What CompiledQuery and CompiledValues share: compile once, run with new values."""

    expected_iterable: type = ModelIterable
    expected_kind = "querysets of model instances"

    def __init__(self, build: Callable[..., QuerySet[Any]], *argument_types: type) -> None:
        self._build = build
        self._types = argument_types
        self._arity = len(argument_types)
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def _compile(self, alias: str) -> _Compiled:
        sentinels = [_sentinel(kind, index) for index, kind in enumerate(self._types)]
        queryset = self._build(*sentinels)
        if queryset._iterable_class is not self.expected_iterable:
            raise TypeError(f"{self._build!r}: {type(self).__name__} is for {self.expected_kind}")
        compiler = queryset.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        slots: list[tuple[int, Any]] = []
        seen: list[int] = []
        for value in params:
            index = next(
                (i for i, s in enumerate(sentinels) if type(value) is type(s) and value == s), -1
            )
            slots.append((index, None if index >= 0 else value))
            if index >= 0:
                seen.append(index)
        if sorted(seen) != list(range(self._arity)):
            raise TypeError(
                f"{self._build!r}: every argument must reach the SQL unchanged as one parameter"
            )
        converters = compiler.get_converters(
            [column[0] for column in compiler.select[: compiler.col_count]]
        )
        klass_info = compiler.klass_info
        if self.expected_iterable is not ModelIterable or klass_info is None:
            return _Compiled(sql, tuple(slots), queryset.query, converters, None, slice(0), [], [])
        select_fields = klass_info["select_fields"]
        model_columns = slice(select_fields[0], select_fields[-1] + 1)
        return _Compiled(
            sql=sql,
            params=tuple(slots),
            query=queryset.query,
            converters=converters,
            model=klass_info["model"],
            model_columns=model_columns,
            attnames=[column[0].target.attname for column in compiler.select[model_columns]],
            populators=get_related_populators(klass_info, compiler.select, alias),
            annotations=tuple((compiler.annotation_col_map or {}).items()),
        )

    def _rows(self, values: tuple[Any, ...], using: str) -> tuple[_Compiled, list[Any]]:
        if len(values) != self._arity:
            raise TypeError(f"expected {self._arity} values, got {len(values)}")
        compiled = self._compiled.get(using)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(using)
                if compiled is None:
                    compiled = self._compiled[using] = self._compile(using)
        params = [values[index] if index >= 0 else constant for index, constant in compiled.params]
        connection = connections[using]
        if compiled.query.select_for_update and connection.get_autocommit():
            # As Django's own compiler refuses it: a lock outside a transaction is a bug.
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        with connection.cursor() as cursor:  # Django's wrapper: logged, counted, wrapped
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        if rows and compiled.converters:
            # A fresh compiler (they hold per-run state) only to apply the converters.
            compiler = SQLCompiler(compiled.query, connection, using)
            rows = list(compiler.apply_converters(rows, compiled.converters))
        return compiled, rows


class CompiledQuery(_CompiledSelect, Generic[M]):
    """``build(*arguments)`` returns the queryset; ``fetch(*values)`` runs it.
    ``CompiledQuery(lambda pk: Game.objects.filter(pk=pk), int)`` then ``.fetch(7)``
    gives the list of games with pk 7, in one query and without compiling it again.
    The types (int or str) are the arguments' types.
    """

    def __init__(self, build: Callable[..., QuerySet[M]], *argument_types: type) -> None:
        super().__init__(build, *argument_types)

    def fetch(self, *values: Any, using: str = "default") -> list[M]:
        compiled, rows = self._rows(values, using)
        model = compiled.model
        assert model is not None
        instances = []
        for row in rows:
            instance = model.from_db(using, compiled.attnames, row[compiled.model_columns])
            for populator in compiled.populators:
                populator.populate(row, instance)
            for attribute, column in compiled.annotations:
                setattr(instance, attribute, row[column])
            instances.append(instance)
        return instances  # type: ignore[return-value]


class CompiledValues(_CompiledSelect):
    """``CompiledValues(lambda game: Turn.objects.filter(game_id=game).values_list("text",
    flat=True), int).fetch(7)`` gives the list of the texts.
    """

    expected_iterable = FlatValuesListIterable
    expected_kind = "flat values_list querysets"

    def fetch(self, *values: Any, using: str = "default") -> list[Any]:
        _compiled, rows = self._rows(values, using)
        return [row[0] for row in rows]


def _plain_types(field: Any) -> tuple[type, ...]:
    """Python types a field sends to PostgreSQL unchanged: for a value of exactly such a
    type its ``get_db_prep_save`` chain (to_python, adapt…) is an identity, and is
    skipped.  Other fields and values (JSON, foreign keys, lazy strings…) are prepared."""
    internal = field.get_internal_type()
    if internal in {
        "IntegerField", "BigIntegerField", "SmallIntegerField", "PositiveIntegerField",
        "PositiveBigIntegerField", "PositiveSmallIntegerField",
    }:  # fmt: skip
        return (int,)
    if internal in {"CharField", "TextField", "SlugField"}:
        return (str,)
    if internal == "BooleanField":
        return (bool,)
    return ()


def _prepare(field: Any, plain: tuple[type, ...], value: Any, connection: Any) -> Any:
    if type(value) in plain:
        return value
    if (
        type(value) is datetime.datetime
        and value.tzinfo is not None  # aware: sent as it is (naive ones get Django's warning)
        and field.get_internal_type() == "DateTimeField"
    ):
        return value
    return field.get_db_prep_save(value, connection)


class CompiledInsert(Generic[M]):
    """``INSERT`` of new instances of one model, the statement built once per row count.

    Does what ``Model.save(force_insert=True)`` and ``bulk_create`` do for a plain model
    (each field's ``pre_save`` — ``auto_now_add`` —, the backend's value preparation, the
    new primary key read back, ``pre_save``/``post_save`` signals when something listens)
    without compiling the statement again: on PostgreSQL that compilation costs about
    twice the CPU of sending the row.  Other backends go through ``save()``.
    """

    def __init__(
        self, model: type[M], *, skip_conflicts: bool = False, batchable: bool = False
    ) -> None:
        """With `skip_conflicts`, a row that a unique constraint refuses is not written
        (``ON CONFLICT DO NOTHING``; a savepoint elsewhere) and ``insert`` leaves it out
        of its answer: one row at a time then.  With `batchable`, inside an
        ``atomic_batch`` the rows are sent with the batch: their keys are set then (the
        callers must not need them before)."""
        if skip_conflicts and batchable:
            raise TypeError("a skipped conflict must be known at once: not batchable")
        self._model = model
        self._skip_conflicts = skip_conflicts
        self._batchable = batchable
        meta = model._meta
        if meta.parents or not isinstance(meta.pk, AutoFieldMixin):
            raise TypeError(f"{model.__name__}: CompiledInsert is for models with an auto key")
        self._fields = [field for field in meta.local_concrete_fields if field is not meta.pk]
        self._plain = [(field, _plain_types(field)) for field in self._fields]
        self._statements: dict[tuple[str, int], str] = {}

    def _statement(self, connection: Any, rows: int) -> str:
        key = (connection.alias, rows)
        statement = self._statements.get(key)
        if statement is None:
            quote = connection.ops.quote_name
            meta = self._model._meta
            row = "(" + ", ".join(["%s"] * len(self._fields)) + ")"
            statement = self._statements[key] = (
                f"INSERT INTO {quote(meta.db_table)} "
                f"({', '.join(quote(field.column) for field in self._fields)}) "
                f"VALUES {', '.join([row] * rows)}"
                f"{' ON CONFLICT DO NOTHING' if self._skip_conflicts else ''}"
                f" RETURNING {quote(meta.pk.column)}"
            )
        return statement

    def insert(self, instances: list[M], using: str = "default") -> list[M]:
        """Write `instances`; the answer is those written (all but refused conflicts)."""
        if not instances:
            return instances
        if self._skip_conflicts and len(instances) != 1:
            raise ValueError("skip_conflicts inserts one row at a time")
        connection = connections[using]
        if connection.vendor != "postgresql":
            if self._skip_conflicts:
                try:
                    with transaction.atomic(using=using):  # a savepoint inside a transaction
                        instances[0].save(force_insert=True, using=using)
                except IntegrityError:
                    return []
                return instances
            if pre_save.has_listeners(self._model) or post_save.has_listeners(self._model):
                for instance in instances:
                    instance.save(force_insert=True, using=using)
                return instances
            return self._model._default_manager.using(using).bulk_create(instances)
        model = self._model
        if pre_save.has_listeners(model):
            for instance in instances:
                pre_save.send(
                    sender=model, instance=instance, raw=False, using=using, update_fields=None
                )
        params: list[Any] = []
        for instance in instances:
            for field, plain in self._plain:
                value = field.pre_save(instance, True)
                params.append(_prepare(field, plain, value, connection))
        write = _Write(
            self._statement(connection, len(instances)), params, model, instances, using, None
        )
        batch = _batch_of(using) if self._batchable else None
        if batch is not None:
            batch.add(write)
            return instances
        if not write.send(connection):  # skip_conflicts: the one row was refused
            return []
        return instances


class CompiledUpdate(Generic[M]):
    """``instance.save(update_fields=…)`` for one fixed set of fields, the ``UPDATE``
    built once: each field's ``pre_save`` (``auto_now``), the signals when something
    listens, and Django's error when no row was updated.  Other backends use save().
    With `batchable`, inside an ``atomic_batch`` it is sent with the batch."""

    def __init__(self, model: type[M], field_names: list[str], *, batchable: bool = False) -> None:
        self._model = model
        self._batchable = batchable
        self._field_names = frozenset(field_names)
        self._fields = [model._meta.get_field(name) for name in field_names]
        self._plain = [(field, _plain_types(field)) for field in self._fields]
        self._statements: dict[str, str] = {}

    def _statement(self, connection: Any) -> str:
        statement = self._statements.get(connection.alias)
        if statement is None:
            quote = connection.ops.quote_name
            meta = self._model._meta
            assignments = ", ".join(f"{quote(field.column)} = %s" for field in self._fields)
            pk = quote(meta.pk.column)
            # RETURNING: how a batch learns that the row was there (a rowcount otherwise).
            statement = self._statements[connection.alias] = (
                f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {pk} = %s RETURNING {pk}"
            )
        return statement

    def update(self, instance: M, using: str = "default") -> None:
        connection = connections[using]
        if connection.vendor != "postgresql":
            instance.save(update_fields=self._field_names, using=using)
            return
        model = self._model
        if pre_save.has_listeners(model):
            pre_save.send(
                sender=model,
                instance=instance,
                raw=False,
                using=using,
                update_fields=self._field_names,
            )
        params = [
            _prepare(field, plain, field.pre_save(instance, False), connection)
            for field, plain in self._plain
        ]
        params.append(instance.pk)
        write = _Write(
            self._statement(connection), params, model, [instance], using, self._field_names
        )
        batch = _batch_of(using) if self._batchable else None
        if batch is not None:
            batch.add(write)
            return
        write.send(connection)


# --- Writes sent together ---------------------------------------------------------------


@dataclass
class _Write:
    """One INSERT … RETURNING pk or UPDATE … RETURNING pk, ready to send."""

    sql: str
    params: list[Any]
    model: type[Model]
    instances: list[Any]
    using: str
    update_fields: frozenset[str] | None  # None: an insert

    def send(self, connection: Any) -> list[Any]:
        """Run the statement alone; the keys it wrote.  An insert that wrote nothing
        (a skipped conflict) is the caller's to report; an update, ``finish`` refuses."""
        with connection.cursor() as cursor:
            cursor.execute(self.sql, self.params)
            keys = [key for (key,) in cursor.fetchall()]
        if keys or self.update_fields is not None:
            self.finish(keys)
        return keys

    def finish(self, keys: list[Any]) -> None:
        """What follows the write: the new keys set, post_save sent."""
        model, using, inserted = self.model, self.using, self.update_fields is None
        if inserted:
            if len(keys) != len(self.instances):
                written = f"{len(keys)} rows written, not {len(self.instances)}"
                raise DatabaseError(f"{model.__name__}: {written}")
            pk_attname = model._meta.pk.attname
            for instance, key in zip(self.instances, keys, strict=True):
                setattr(instance, pk_attname, key)
                instance._state.adding = False
        elif len(keys) != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")
        listened = post_save.has_listeners(model)
        for instance in self.instances:
            instance._state.db = using
            if not listened:
                continue
            post_save.send(
                sender=model,
                instance=instance,
                created=inserted,
                update_fields=self.update_fields,
                raw=False,
                using=using,
            )


class _WriteBatch:
    """The batchable writes of one ``atomic_batch``, held back and sent as one statement
    (PostgreSQL's data-modifying ``WITH``): a turn's four writes cost one round trip.

    Nothing can tell the difference but the statement count: the held-back writes are
    sent before any other statement runs on the connection (an execute wrapper: a read,
    a savepoint, raw SQL all see them) and before the transaction commits.  An UPDATE
    goes alone when a write to its table is waiting (one statement must not touch a row
    twice, nor update a row it inserts).  ``post_save`` is sent when a write is sent.
    A failed send fails the whole ``atomic_batch`` (it rolls back) even if a caller
    caught the error, or rolled back a savepoint around it.
    """

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.waiting: list[_Write] = []
        self.failure: BaseException | None = None
        self._sending = False

    def add(self, write: _Write) -> None:
        if write.update_fields is not None and any(
            waiting.model._meta.db_table == write.model._meta.db_table for waiting in self.waiting
        ):
            self.send()
        self.waiting.append(write)

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if self.waiting and not self._sending:
            self.send()
        return execute(sql, params, many, context)

    def send(self) -> None:
        writes, self.waiting = self.waiting, []
        if not writes:
            return
        self._sending = True
        try:
            with self.connection.cursor() as cursor:
                if len(writes) == 1:
                    cursor.execute(writes[0].sql, writes[0].params)
                    rows = [(0, key) for (key,) in cursor.fetchall()]
                else:
                    cursor.execute(
                        _batch_statement(self.connection, writes),
                        [param for write in writes for param in write.params],
                    )
                    rows = cursor.fetchall()
            keys: list[list[Any]] = [[] for _ in writes]
            for index, key in rows:
                keys[index].append(key)
            self._sending = False
            for write, written in zip(writes, keys, strict=True):
                write.finish(written)  # a missing row raises here
        except BaseException as exc:
            self.failure = exc
            raise
        finally:
            self._sending = False


# The statements of the combinations of writes sent so far (a few: one per path).
_BATCH_STATEMENTS: dict[tuple[str, ...], str] = {}


def _batch_statement(connection: Any, writes: list[_Write]) -> str:
    key = tuple(write.sql for write in writes)
    statement = _BATCH_STATEMENTS.get(key)
    if statement is None:
        quote = connection.ops.quote_name
        parts = ", ".join(f"w{index} AS ({sql})" for index, sql in enumerate(key))
        keys = " UNION ALL ".join(
            f"SELECT {index}, {quote(write.model._meta.pk.column)} FROM w{index}"
            for index, write in enumerate(writes)
        )
        statement = _BATCH_STATEMENTS[key] = f"WITH {parts} {keys}"
    return statement


_batches = threading.local()


def _batch_of(using: str) -> _WriteBatch | None:
    return getattr(_batches, using, None)


@contextmanager
def atomic_batch(using: str = "default") -> Iterator[None]:
    """``transaction.atomic()`` in which the batchable compiled writes are sent together
    (see ``_WriteBatch``).  On other backends than PostgreSQL, and inside another
    ``atomic_batch``, it is plain ``transaction.atomic()``."""
    with transaction.atomic(using=using):
        connection = connections[using]
        if connection.vendor != "postgresql" or _batch_of(using) is not None:
            yield
            return
        batch = _WriteBatch(connection)
        setattr(_batches, using, batch)
        try:
            with connection.execute_wrapper(batch):
                yield
                batch.send()  # before the commit: a failure rolls it back
        finally:
            setattr(_batches, using, None)
        if batch.failure is not None:  # sent earlier and caught by someone: roll back
            raise batch.failure
