"""Named raw-SQL statements built from the models: the hot reads and writes.

Django compiles a queryset to SQL on every evaluation; for the two reads of every API
turn (the bearer token with its user; the locked game with both players, their
profiles and the stored turns) that compiling cost more CPU than PostgreSQL spends
running them, and so did building a turn's four writes (the turn, the game, the stream
events, the notifications).  Those statements are written once as SQL (see
``accounts.hot_reads``, ``games.hot_reads``, ``games.hot_writes``, ``stream.events``,
``notifications.services``); this module gives them their column lists, turns a row
back into model instances and an instance into the values ``save()`` would write,
through public API only: the documented ``_meta.get_fields()``, ``Model.from_db()``
(the hook Django itself uses to load a row), each field's ``from_db_value()``,
``pre_save()`` and ``get_db_prep_save()``.  A field added to a model is read and
written automatically; ``games/tests/test_hot_reads.py`` and ``test_hot_writes.py``
check the instances and rows equal what the ORM loads and saves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)


def column(model: type[Model], name: str) -> str:
    """The column of the model's field `name`, one stored in the model's own table."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field) or field.column is None:
        raise ValueError(f"{model.__name__}.{name} has no column")
    return field.column


def _column_fields(model: type[Model]) -> list[Field[Any, Any]]:
    """The fields stored in the model's own table, in the order Model.__init__ takes
    them positionally (forward concrete fields; many-to-many ones have a table of
    their own)."""
    return [
        field
        for field in model._meta.get_fields()
        if field.concrete and not field.many_to_many and isinstance(field, Field)
    ]


class RowReader(Generic[M]):
    """The columns of one model in a SELECT (``alias."column"``, …) and the instance
    made from them."""

    def __init__(self, model: type[M], alias: str) -> None:
        self.model = model
        self.alias = alias
        self.fields = _column_fields(model)
        self.attnames = [field.attname for field in self.fields]
        self.width = len(self.fields)
        self._converters: list[tuple[int, Callable[..., Any], Field[Any, Any]]] = [
            (index, field.from_db_value, field)
            for index, field in enumerate(self.fields)
            if hasattr(field, "from_db_value")
        ]

    def columns(self) -> str:
        return ", ".join(f'{self.alias}."{field.column}"' for field in self.fields)

    def load(self, row: Sequence[Any], start: int = 0) -> M:
        """The instance whose columns begin at ``row[start]``, as the ORM would load it."""
        values = list(row[start : start + self.width])
        db = connections[DEFAULT_DB_ALIAS]
        for index, convert, field in self._converters:
            values[index] = convert(values[index], field, db)
        instance: M = self.model.from_db(DEFAULT_DB_ALIAS, self.attnames, values)
        return instance


class RowWriter(Generic[M]):
    """The INSERT of one model's row and the UPDATE of some of its columns, as SQL text
    and parameters for a named statement (the hot writes: ``games.hot_writes``,
    ``stream.events``, ``notifications.services``).

    Values go through each field's documented ``pre_save()`` (``auto_now`` and
    ``auto_now_add`` set the instance's attribute, as ``save()`` does) and
    ``get_db_prep_save()`` (foreign keys, JSON, time zones), so the row written is the
    one ``save()`` would write.  What a statement skips is what only ``save()`` does:
    a ``save()`` override and the ``pre_save``/``post_save`` signals;
    :func:`unsupported` names those for a model, and the tests of each user fail while
    it names any.  The primary key must be filled by the database (an ``AutoField``).
    """

    def __init__(self, model: type[M]) -> None:
        self.model = model
        meta = model._meta
        self.table = meta.db_table
        self.pk = meta.pk
        assert self.pk is not None
        self.insert_fields = [field for field in _column_fields(model) if not field.primary_key]
        columns = ", ".join(f'"{field.column}"' for field in self.insert_fields)
        self.values_row = "(" + ", ".join(["%s"] * len(self.insert_fields)) + ")"
        self.insert_head = f'INSERT INTO "{self.table}" ({columns}) VALUES '
        self.returning = f' RETURNING "{self.pk.column}"'

    def insert_values(self, instance: M) -> list[Any]:
        # The connection itself, not the django.db.connection proxy: the fields read
        # its attributes dozens of times a turn, each a thread-local lookup through it.
        db = connections[DEFAULT_DB_ALIAS]
        return [
            field.get_db_prep_save(field.pre_save(instance, True), db)
            for field in self.insert_fields
        ]

    def insert_sql(self, rows: int = 1, *, skip_conflicts: bool = False) -> str:
        """``INSERT … VALUES (…), … RETURNING pk`` for ``rows`` rows; with
        ``skip_conflicts`` (PostgreSQL), a row a unique constraint refuses is not
        written and returns nothing (``ON CONFLICT DO NOTHING``) instead of raising."""
        conflict = " ON CONFLICT DO NOTHING" if skip_conflicts else ""
        return self.insert_head + ", ".join([self.values_row] * rows) + conflict + self.returning

    def update_sql(self, names: Sequence[str]) -> str:
        """``UPDATE … SET <the named fields' columns> WHERE pk = %s`` (parameters:
        :meth:`update_values`)."""
        assignments = ", ".join(f'"{column(self.model, name)}" = %s' for name in names)
        return f'UPDATE "{self.table}" SET {assignments} WHERE "{self.pk.column}" = %s'

    def update_values(self, instance: M, names: Sequence[str]) -> list[Any]:
        db = connections[DEFAULT_DB_ALIAS]
        values = []
        for name in names:
            field = self.model._meta.get_field(name)
            assert isinstance(field, Field)
            values.append(field.get_db_prep_save(field.pre_save(instance, False), db))
        values.append(instance.pk)
        return values


def unsupported(model: type[Model]) -> list[str]:
    """What a :class:`RowWriter` statement would skip for ``model`` (empty: nothing):
    a ``save()`` of its own, receivers of its ``pre_save``/``post_save`` signals,
    fields the database computes (``GeneratedField``, ``db_default``)."""
    from django.db.models import NOT_PROVIDED
    from django.db.models.signals import post_save, pre_save

    found = []
    if model.save is not Model.save:
        found.append(f"{model.__name__}.save() is overridden")
    for signal, name in ((pre_save, "pre_save"), (post_save, "post_save")):
        if signal.has_listeners(model):
            found.append(f"{model.__name__} has {name} receivers")
    for field in _column_fields(model):
        if getattr(field, "generated", False):
            found.append(f"{model.__name__}.{field.name} is generated")
        if getattr(field, "db_default", NOT_PROVIDED) is not NOT_PROVIDED:
            found.append(f"{model.__name__}.{field.name} has a db_default")
    return found
