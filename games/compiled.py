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
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable, get_related_populators
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
    # For each SQL parameter: the caller's argument index, or the constant value itself.
    params: tuple[tuple[int, Any], ...]
    query: Query
    select: Any
    klass_info: dict[str, Any] | None
    annotation_col_map: dict[str, int] | None
    col_count: int
    has_extra_select: bool
    # Converters by column (JSON fields…); the backend's converters keep no state.
    converters: dict[int, Any]
    model: type[Model]
    model_columns: slice
    attnames: list[str]
    populators: list[Any]  # select_related objects; they keep no per-row state


class CompiledQuery(Generic[M]):
    """``build(*arguments)`` returns the queryset; ``fetch(*values)`` runs it.

    ``CompiledQuery(lambda pk: Game.objects.filter(pk=pk), int)`` then ``.fetch(7)``
    gives the list of games with pk 7, in one query and without compiling it again.
    The types (int or str) are the arguments' types.
    """

    def __init__(self, build: Callable[..., QuerySet[M]], *argument_types: type) -> None:
        self._build = build
        self._types = argument_types
        self._arity = len(argument_types)
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def _compile(self, alias: str) -> _Compiled:
        sentinels = [_sentinel(kind, index) for index, kind in enumerate(self._types)]
        queryset = self._build(*sentinels)
        if queryset._iterable_class is not ModelIterable:
            raise TypeError(f"{self._build!r}: CompiledQuery is for querysets of model instances")
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
        klass_info = compiler.klass_info
        assert klass_info is not None  # set for every ModelIterable queryset
        select_fields = klass_info["select_fields"]
        model_columns = slice(select_fields[0], select_fields[-1] + 1)
        return _Compiled(
            sql=sql,
            params=tuple(slots),
            query=queryset.query,
            select=compiler.select,
            klass_info=compiler.klass_info,
            annotation_col_map=compiler.annotation_col_map,
            col_count=compiler.col_count,
            has_extra_select=compiler.has_extra_select,
            converters=compiler.get_converters(
                [column[0] for column in compiler.select[: compiler.col_count]]
            ),
            model=klass_info["model"],
            model_columns=model_columns,
            attnames=[column[0].target.attname for column in compiler.select[model_columns]],
            populators=get_related_populators(klass_info, compiler.select, alias),
        )

    def _compiled_for(self, alias: str) -> _Compiled:
        compiled = self._compiled.get(alias)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(alias)
                if compiled is None:
                    compiled = self._compiled[alias] = self._compile(alias)
        return compiled

    def fetch(self, *values: Any, using: str = "default") -> list[M]:
        if len(values) != self._arity:
            raise TypeError(f"expected {self._arity} values, got {len(values)}")
        compiled = self._compiled_for(using)
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
        if not rows:
            return []
        if compiled.converters:
            # A fresh compiler (they hold per-run state) only to apply the converters.
            compiler = SQLCompiler(compiled.query, connection, using)
            rows = list(compiler.apply_converters(rows, compiled.converters))
        instances = []
        for row in rows:
            instance = compiled.model.from_db(using, compiled.attnames, row[compiled.model_columns])
            for populator in compiled.populators:
                populator.populate(row, instance)
            instances.append(instance)
        return instances
