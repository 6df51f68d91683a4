"""Model instances from the columns of a named raw-SQL statement (the hot reads).

Django compiles a queryset to SQL on every evaluation; for the two reads of every API
turn (the bearer token with its user; the locked game with both players, their
profiles and the stored turns) that compiling cost more CPU than PostgreSQL spends
running them.  Those reads are written once as SQL (see ``accounts.hot_reads`` and
``games.hot_reads``); this module gives them their column lists and turns a row back
into model instances, through public API only: the documented ``_meta.get_fields()``,
``Model.from_db()`` (the hook Django itself uses to load a row) and each field's
``from_db_value()`` where it has one.  A field added to a model is read automatically;
``core/tests/test_rows.py`` checks the instances equal what the ORM loads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import connection
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)


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
        for index, convert, field in self._converters:
            values[index] = convert(values[index], field, connection)
        instance: M = self.model.from_db(connection.alias, self.attnames, values)
        return instance
