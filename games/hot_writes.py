"""A turn's own two writes — the new turn row and the game's changed columns — as one
named SQL statement (PostgreSQL): every API turn runs it.

Through the ORM, ``Turn.objects.create()`` and ``game.save(update_fields=…)`` compile
two statements on every turn and cost two round trips.  Here one data-modifying
``WITH`` runs both; the values are those ``save()`` would write (``core.rows``), and
``games/tests/test_hot_writes.py`` fails if either model gains what a statement would
skip (a ``save()`` override, save signals' receivers, database-computed fields).  The
unique (game, ply) constraint still raises ``IntegrityError`` at this statement.
Other databases keep the two ORM calls (``services.play_turn``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from django.db import connection

from core.rows import RowWriter
from games.models import Game
from games.models import Turn as TurnRow


class _TurnWrite:
    def __init__(self) -> None:
        self.turn = RowWriter(TurnRow)
        self.game = RowWriter(Game)
        self._sql: dict[tuple[str, ...], str] = {}

    def sql(self, game_fields: tuple[str, ...]) -> str:
        sql = self._sql.get(game_fields)
        if sql is None:
            sql = self._sql[game_fields] = (
                f"WITH new_turn AS ({self.turn.insert_sql()}), "
                f"changed_game AS ({self.game.update_sql(game_fields)}) "
                "SELECT id FROM new_turn"
            )
        return sql

    def __call__(self, row: TurnRow, game: Game, game_fields: Sequence[str]) -> None:
        fields = tuple(game_fields)
        params = [*self.turn.insert_values(row), *self.game.update_values(game, fields)]
        with connection.cursor() as cursor:
            cursor.execute(self.sql(fields), params)
            (row.pk,) = cursor.fetchone()


@cache
def _statement() -> _TurnWrite:
    return _TurnWrite()  # built at first use: the models' apps must be ready


def record_turn(row: TurnRow, game: Game, game_fields: Sequence[str]) -> None:
    """Insert ``row`` (its ``pk`` is set) and save ``game_fields`` of ``game``."""
    _statement()(row, game, game_fields)
