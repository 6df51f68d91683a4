"""The archive of finished games: the filtered query, streamed export and .agn import.

One filter form (archive/forms.py) serves the archive page and ``GET /api/v1/archive`` alike.
Exports stream: games are read in batches (archive/records.py, which also builds
every game's record) and written out as they come, so memory stays flat however
many games match; the .agn text is the engine's ``write_game``.
The .agn import runs as a Celery job (archive.imports).
"""

from __future__ import annotations

import datetime
import io
import json
import zipfile
from collections.abc import Iterable, Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils import timezone

from archive.records import evaluations, iter_games, one_game, tournament_games
from engine import write_game
from games.models import Game
from tournaments.models import Tournament

User = get_user_model()

SORTS = {
    "-finished": ("-finished", "-id"),
    "finished": ("finished", "id"),
    "-ply": ("-ply", "-id"),
    "ply": ("ply", "id"),
    "-id": ("-id",),
    "id": ("id",),
}
FORMATS = ("agn", "ndjson", "zip")


def archive_queryset(filters: dict[str, Any]) -> QuerySet[Game]:
    """Finished games matching the cleaned data of an ArchiveFilterForm."""
    games = Game.objects.filter(status=Game.Status.FINISHED)
    player, opponent = filters.get("player_user"), filters.get("opponent_user")
    color = filters.get("color")
    if player is not None:
        if color == "white":
            games = games.filter(white=player)
        elif color == "black":
            games = games.filter(black=player)
        else:
            games = games.filter(Q(white=player) | Q(black=player))
    if opponent is not None:
        if player is not None and color == "white":
            games = games.filter(black=opponent)
        elif player is not None and color == "black":
            games = games.filter(white=opponent)
        else:
            games = games.filter(Q(white=opponent) | Q(black=opponent))
    result = filters.get("result")
    if result in Game.Result.values:
        games = games.filter(result=result)
    elif result in ("win", "loss") and player is not None:
        won = Q(white=player, result=Game.Result.WHITE_WINS) | Q(
            black=player, result=Game.Result.BLACK_WINS
        )
        lost = Q(white=player, result=Game.Result.BLACK_WINS) | Q(
            black=player, result=Game.Result.WHITE_WINS
        )
        games = games.filter(won if result == "win" else lost)
    if filters.get("termination"):
        games = games.filter(termination=filters["termination"])
    if filters.get("tournament"):
        games = games.filter(tournament_pairing__round__tournament_id=filters["tournament"])
    if filters.get("opening"):
        games = games.filter(opening=filters["opening"])
    if filters.get("board") == "standard":
        games = games.filter(board="")
    elif filters.get("board") == "custom":
        games = games.exclude(board="")
    tz = timezone.get_current_timezone()
    if filters.get("since"):
        start = datetime.datetime.combine(filters["since"], datetime.time.min, tzinfo=tz)
        games = games.filter(finished__gte=start)
    if filters.get("until") and filters["until"] < datetime.date.max:
        end = datetime.datetime.combine(
            filters["until"] + datetime.timedelta(days=1), datetime.time.min, tzinfo=tz
        )
        games = games.filter(finished__lt=end)
    if filters.get("imported") is not None:
        games = games.filter(imported=filters["imported"])
    return games.order_by(*SORTS.get(filters.get("sort") or "-finished", SORTS["-finished"]))


# --- Export ------------------------------------------------------------------------------


def export_agn(games: QuerySet[Game]) -> Iterator[str]:
    """The games' records, separated by blank lines (a pie game that ended before its
    pieces were placed has none: no start, no turns)."""
    first = True
    for game in iter_games(games):
        if game.has_record:
            text = write_game(game.record())
            yield text if first else "\n" + text
            first = False


def export_ndjson(games: QuerySet[Game]) -> Iterator[str]:
    for game in iter_games(games):
        yield json.dumps(game.as_json(), ensure_ascii=False) + "\n"


class _Pipe(io.RawIOBase):
    """A write-only, unseekable stream whose written bytes are taken out as they come."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self.parts.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        out = b"".join(self.parts)
        self.parts.clear()
        return out


def export_zip(games: QuerySet[Game], name: str = "adaptoid-archive.agn") -> Iterator[bytes]:
    """A zip holding one .agn file, compressed and written out as it grows."""
    pipe = _Pipe()
    # Level 1: several times faster than the default 6 for about a quarter more bytes.
    # Opened by name, the member takes the archive's method and level.
    with (
        zipfile.ZipFile(pipe, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive,
        archive.open(name, "w", force_zip64=True) as member,
    ):
        for text in export_agn(games):
            member.write(text.encode("utf-8"))
            chunk = pipe.take()
            if chunk:
                yield chunk
    yield pipe.take()


def export(games: QuerySet[Game], fmt: str) -> tuple[Iterable[Any], str, str]:
    """(chunks, content type, file name) for a format of FORMATS."""
    if fmt == "ndjson":
        return export_ndjson(games), "application/x-ndjson", "adaptoid-archive.ndjson"
    if fmt == "zip":
        return export_zip(games), "application/zip", "adaptoid-archive.zip"
    return export_agn(games), "text/plain; charset=utf-8", "adaptoid-archive.agn"


def game_agn(game_id: int, *, with_evaluations: bool = False) -> str | None:
    """One game's record as .agn text; None when there is no such game (WrongPhase when
    it has no record yet: a pie game whose pieces are not placed).  `with_evaluations`:
    its analysis's evaluations as `{[%eval …]}` comments (docs/engine.md)."""
    game = one_game(game_id)
    if game is None:
        return None
    return write_game(game.record(evaluations(game_id) if with_evaluations else None))


def tournament_agn(tournament: Tournament) -> str:
    """Every game of the tournament that has a record, as one .agn text, round by round."""
    return "".join(export_agn(tournament_games(tournament)))
