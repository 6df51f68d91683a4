"""Stored games as engine records: the one header builder of every .agn download.

The archive export (``GET /api/v1/archive``), a game's download (``/games/<id>/record.agn``
and ``GET /api/v1/games/<id>/record``) and a tournament's download
(``/tournaments/<id>/games.agn`` and ``GET /api/v1/tournaments/<id>/games``) all read
games with :func:`iter_games`, build each record with :meth:`ExportedGame.record` and
write it with the engine's ``write_game``: the same game is the same bytes in all of them.

The tags follow the format (engine/record.py, docs/engine.md): the seven of PGN, then,
only when the game does not start from the standard start, ``Opening`` (``pie`` or
``position``: a custom start is a ``position``), ``Board`` (a custom board) and
``Position``, then ``Termination`` and our ``GameId``.  A tournament game names its
tournament as the ``Event`` and its round and board as the ``Round`` ("2.1").
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from engine import STANDARD_START, GameRecord
from games import errors
from games.models import Game
from games.models import Turn as TurnRow
from tournaments.models import Pairing, Tournament

BATCH = 1000
EVENT = "Adaptoid correspondence game"
SITE = "Adaptoid platform"

_FIELDS = (
    "id",
    "white__username",
    "black__username",
    "result",
    "termination",
    "opening",
    "start_position",
    "board",
    "created",
    "finished",
    "rated",
    "imported",
)


@dataclass
class ExportedGame:
    """What the archive keeps of a game: its row's values, its turns and its tournament."""

    id: int
    white: str
    black: str
    result: str
    termination: str
    opening: str
    start: str  # "" for a pie game whose pieces were never placed
    board: str
    created: datetime.datetime
    finished: datetime.datetime | None
    rated: bool
    imported: bool
    turns: list[str] = field(default_factory=list)
    event: str = EVENT  # the tournament's name for a tournament game
    round: str = "-"  # "round.board" for a tournament game

    @property
    def has_record(self) -> bool:
        """False for a pie game that ended before its pieces were placed: no start, no turns."""
        return bool(self.start)

    def record(self, evaluations: dict[int, float] | None = None) -> GameRecord:
        """The game's record, its tags in the format's order (raises WrongPhase without
        a start position).  `evaluations` (White's expected score after each ply, from
        the game's computer analysis) become `{[%eval 0.63]}` comments after the turns."""
        if not self.start:
            raise errors.WrongPhase(_("The pieces of this pie game have not been placed yet."))
        headers = {
            "Event": self.event,
            "Site": SITE,
            "Date": self.created.strftime("%Y.%m.%d"),
            "Round": self.round,
            "White": self.white,
            "Black": self.black,
            "Result": self.result,
        }
        if self.start != STANDARD_START:
            headers["Opening"] = "pie" if self.opening == Game.Opening.PIE else "position"
            if self.board:
                headers["Board"] = self.board
            headers["Position"] = self.start
        if self.termination:
            headers["Termination"] = self.termination
        headers["GameId"] = str(self.id)
        comments = {
            ply: f"[%eval {value:.2f}]"
            for ply, value in (evaluations or {}).items()
            if 1 <= ply <= len(self.turns)
        }
        return GameRecord(
            headers=headers, start=self.start, turns=self.turns, result=self.result,
            comments=comments,
        )  # fmt: skip

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "white": self.white,
            "black": self.black,
            "result": self.result,
            "termination": self.termination,
            "opening": self.opening,
            "start": self.start,
            "turns": self.turns,
            "created": self.created.isoformat(),
            "finished": self.finished.isoformat() if self.finished else None,
            "rated": self.rated,
            "imported": self.imported,
        }


def _turn_texts(game_ids: list[int]) -> dict[int, list[str]]:
    """Each game's turn texts in order, one row per game (turn texts hold no spaces).

    Raw SQL because the ORM has no portable ordered string aggregate: PostgreSQL
    orders inside ``string_agg``; SQLite's ``group_concat`` follows the ordered subquery.
    """
    table = connection.ops.quote_name(TurnRow._meta.db_table)
    marks = ",".join(["%s"] * len(game_ids))
    if connection.vendor == "postgresql":
        sql = (
            f"SELECT game_id, string_agg(text, ' ' ORDER BY ply) FROM {table} "
            f"WHERE game_id IN ({marks}) GROUP BY game_id"
        )
    else:
        sql = (
            f"SELECT game_id, group_concat(text, ' ') FROM (SELECT game_id, text FROM {table} "
            f"WHERE game_id IN ({marks}) ORDER BY game_id, ply) GROUP BY game_id"
        )
    with connection.cursor() as cursor:
        cursor.execute(sql, game_ids)
        return {game_id: texts.split(" ") for game_id, texts in cursor.fetchall()}


def _tournament_places(game_ids: list[int]) -> dict[int, tuple[str, str]]:
    """(event, round) of those of the games that were played in a tournament."""
    rows = Pairing.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "round__tournament__name", "round__number", "board"
    )
    return {game_id: (name, f"{number}.{board}") for game_id, name, number, board in rows}


def iter_games(games: QuerySet[Game], batch: int = BATCH) -> Iterator[ExportedGame]:
    """The games of `games`, in its order, with their turns and tournament places:
    three queries per `batch` games, so memory stays flat however many there are."""
    rows = games.values_list(*_FIELDS).iterator(chunk_size=batch)
    while True:
        chunk = [ExportedGame(*row) for _, row in zip(range(batch), rows, strict=False)]
        if not chunk:
            return
        ids = [game.id for game in chunk]
        turns = _turn_texts(ids)
        places = _tournament_places(ids)
        for game in chunk:
            game.turns = turns.get(game.id, [])
            if game.id in places:
                game.event, game.round = places[game.id]
        yield from chunk


def evaluations(game_id: int) -> dict[int, float]:
    """The game's analysed evaluations by ply ({} before its analysis is done)."""
    from analysis.services import evaluations_by_ply

    return evaluations_by_ply(game_id)


def one_game(game_id: int) -> ExportedGame | None:
    """The game `game_id` as the archive exports it (None if there is none)."""
    return next(iter_games(Game.objects.filter(pk=game_id)), None)


def tournament_games(tournament: Tournament) -> QuerySet[Game]:
    """The tournament's games that have a record, round by round and board by board."""
    return (
        Game.objects.filter(tournament_pairing__round__tournament=tournament)
        .exclude(start_position="")
        .order_by("tournament_pairing__round__number", "tournament_pairing__board")
    )
