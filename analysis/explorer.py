"""The opening explorer: which turns the archive's games played from a position.

Indexing (analysis.tasks.index_games, queued when a game finishes; the
``index_explorer`` command backfills): for each finished game not indexed yet, every
position it reached (the start and the position after each ply) with the turn played
from it ("" for the last one) becomes an ExplorerEntry row, once per game, and the
running totals ExplorerPosition (per position) and ExplorerTurn (per position and turn)
go up by one game and its result.  A game is indexed once (ExplorerGame), however often
the job runs; nothing is ever rescanned.  Where a position's games of one kind (rated or
not, imported or not) reach DATED_FROM, they are also counted per day and per month
(ExplorerPeriod): the job that brings the count there sums that position's entries of
that kind once (fewer than DATED_FROM + its batch) and marks the row `dated`; later jobs
add their games to the periods.  Every job adding a game of that kind to the position
holds that ExplorerPosition row's lock until it commits, so the one that crosses sees
every earlier game's entries and none is counted twice or missed.

Querying (:func:`explore`): without filters, or with only ``rated``/``imported``, the
totals: a few rows of one index range of ExplorerPosition and of ExplorerTurn (split
by those two flags) — a cost that does not grow with the number of games stored.
With dates (and no player): per kind, the position's periods that cover the range (whole
months, and the days of the partial months at its ends: at most a few hundred rows
whatever the number of games) where the kind is dated, its ExplorerEntry rows (fewer
than DATED_FROM games) where not.  With a player, that player's ExplorerEntry rows
(read through the player's index) are grouped.

A position is its 64-bit key (:func:`position_key`): a digest of the engine's canonical
position string, so the same pieces, side to move, scores and board are the same
position whatever turn order led there.
"""

from __future__ import annotations

import datetime
import hashlib
import operator
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import reduce
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone

from analysis.models import (
    ExplorerEntry,
    ExplorerGame,
    ExplorerPeriod,
    ExplorerPosition,
    ExplorerTurn,
)
from engine import Position, Turn
from games.models import Game

BATCH = 500
# Games of one kind at a position from which they are also counted by period: below it,
# grouping the position's entries is as quick as summing periods (bench/explorer.py).
DATED_FROM = 1000

_RESULT_COLUMN: dict[str, str] = {
    Game.Result.WHITE_WINS: "white",
    Game.Result.BLACK_WINS: "black",
    Game.Result.DRAW: "draws",
}


def position_key(text: str) -> int:
    """A signed 64-bit key (a BIGINT) of a canonical position string."""
    digest = hashlib.blake2b(text.encode("ascii"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


@dataclass(frozen=True)
class IndexedGame:
    """What the index needs of one finished game."""

    id: int
    white_id: int
    black_id: int
    result: str
    rated: bool
    imported: bool
    finished: datetime.datetime
    start: str
    turns: Sequence[str]


def reached(start: str, turns: Iterable[str]) -> dict[tuple[int, str], int]:
    """{(position key, turn played from it): ply} along a game ("" after its last turn),
    in order; each pair once, at its first ply (a repeated position played the same way
    counts once per game)."""
    position = Position.from_string(start)
    pairs: dict[tuple[int, str], int] = {}
    played = 0
    for played, text in enumerate(turns, 1):
        pairs.setdefault((position_key(str(position)), text), played - 1)
        position.push(Turn.parse(text))  # stored turns were checked when played
    pairs.setdefault((position_key(str(position)), ""), played)
    return pairs


def _upsert(
    table: str, keys: Sequence[str], rows: list[tuple[Any, ...]], returning: str = ""
) -> list[tuple[Any, ...]]:
    """Add the rows' counts to the table's running totals (INSERT … ON CONFLICT, which
    PostgreSQL and SQLite share); with `returning` (columns), the rows as they now are.
    Rows come sorted by key: two jobs at once lock the same rows in the same order and
    never deadlock."""
    if not rows:
        return []
    table = connection.ops.quote_name(table)
    columns = [*keys, "games", "white", "black", "draws"]
    counted = ("games", "white", "black", "draws")
    marks = "(" + ",".join(["%s"] * len(columns)) + ")"
    updates = ", ".join(f"{c} = {table}.{c} + excluded.{c}" for c in counted)
    returned: list[tuple[Any, ...]] = []
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 500):
            chunk = rows[start : start + 500]
            sql = (
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                f"{', '.join([marks] * len(chunk))} "
                f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {updates}"
            )
            if returning:
                sql += f" RETURNING {returning}"
            cursor.execute(sql, [value for row in chunk for value in row])
            if returning:
                returned.extend(cursor.fetchall())
    return returned


def index_records(games: Sequence[IndexedGame]) -> int:
    """Index these games (already claimed in ExplorerGame by the caller's transaction)."""
    entries: list[ExplorerEntry] = []
    per_position: dict[tuple[int, bool, bool], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    per_turn: dict[tuple[int, str, bool, bool], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for game in games:
        kind = (bool(game.rated), bool(game.imported))
        column = _RESULT_COLUMN.get(game.result)
        outcome = (1, column == "white", column == "black", column == "draws")
        pairs = reached(game.start, game.turns)
        for key in dict.fromkeys(key for key, _turn in pairs):
            totals = per_position[(key, *kind)]
            for i, count in enumerate(outcome):
                totals[i] += count
        for (key, turn), ply in pairs.items():
            entries.append(
                ExplorerEntry(
                    key=key,
                    game_id=game.id,
                    turn=turn,
                    ply=ply,
                    white_id=game.white_id,
                    black_id=game.black_id,
                    result=game.result,
                    rated=game.rated,
                    imported=game.imported,
                    finished=game.finished,
                )
            )
            if turn:
                totals = per_turn[(key, turn, *kind)]
                for i, count in enumerate(outcome):
                    totals[i] += count
    ExplorerEntry.objects.bulk_create(entries, batch_size=2000)
    positions = _upsert(
        ExplorerPosition._meta.db_table,
        ["key", "rated", "imported"],
        [(*group, *totals) for group, totals in sorted(per_position.items())],
        returning="key, rated, imported, games, dated",
    )
    _upsert(
        ExplorerTurn._meta.db_table,
        ["key", "turn", "rated", "imported"],
        [(*group, *totals) for group, totals in sorted(per_turn.items())],
    )
    # This job holds the lock of every position row it returned until it commits.
    dated = {(key, bool(r), bool(i)) for key, r, i, _games, is_dated in positions if is_dated}
    crossing = sorted(
        (key, bool(r), bool(i))
        for key, r, i, count, is_dated in positions
        if not is_dated and count >= DATED_FROM
    )
    _add_periods(
        (entry.key, entry.rated, entry.imported, entry.game_id, entry.turn, entry.result,
         entry.finished)
        for entry in entries
        if (entry.key, entry.rated, entry.imported) in dated
    )  # fmt: skip
    for group in crossing:
        date_position(*group)
    return len(games)


PeriodSource = tuple[int, bool, bool, int, str, str, datetime.datetime]


def _add_periods(rows: Iterable[PeriodSource]) -> None:
    """Count entries (key, rated, imported, game id, turn, result, finished) into their
    day's and month's ExplorerPeriod rows: each game once in the position's row (turn
    ""), each entry with a turn in that turn's row."""
    counts: dict[tuple[Any, ...], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    seen: set[tuple[int, bool, bool, int]] = set()
    zone = timezone.get_default_timezone()  # the days of the filters' `finished__date`
    for key, rated, imported, game_id, turn, result, finished in rows:
        day = timezone.localtime(finished, zone).date()
        column = _RESULT_COLUMN.get(result)
        outcome = (1, column == "white", column == "black", column == "draws")
        turns = [turn] if turn else []
        if (key, rated, imported, game_id) not in seen:
            seen.add((key, rated, imported, game_id))
            turns.append("")
        for text in turns:
            for month, start in ((False, day), (True, day.replace(day=1))):
                totals = counts[(key, month, start, rated, imported, text)]
                for i, count in enumerate(outcome):
                    totals[i] += count
    _upsert(
        ExplorerPeriod._meta.db_table,
        ["key", "month", "start", "rated", "imported", "turn"],
        [(*group, *totals) for group, totals in sorted(counts.items())],
    )


def date_position(key: int, rated: bool, imported: bool) -> None:
    """Count a position's games of one kind by period from its entries, once, and mark it
    dated.  The caller's transaction holds (or here takes) the ExplorerPosition row's
    lock, so no other job adds a game of that kind there meanwhile."""
    row = (
        ExplorerPosition.objects.select_for_update()
        .filter(key=key, rated=rated, imported=imported, dated=False)
        .first()
    )
    if row is None:  # dated meanwhile
        return
    entries = ExplorerEntry.objects.filter(key=key, rated=rated, imported=imported)
    _add_periods(
        (key, rated, imported, game_id, turn, result, finished)
        for game_id, turn, result, finished in entries.values_list(
            "game_id", "turn", "result", "finished"
        ).iterator(chunk_size=5000)
    )
    ExplorerPosition.objects.filter(pk=row.pk).update(dated=True)


def date_positions(report: Any = None) -> int:
    """The backfill of periods: date every position kind that has DATED_FROM games but no
    periods yet (an index built before periods existed); returns how many."""
    done = 0
    while True:
        with transaction.atomic():
            rows = list(
                ExplorerPosition.objects.filter(dated=False, games__gte=DATED_FROM)
                .order_by("key", "rated", "imported")
                .values_list("key", "rated", "imported")[:100]
            )
            for row in rows:
                date_position(*row)
        if not rows:
            return done
        done += len(rows)
        if report is not None:
            report(done)


def index_games(game_ids: Iterable[int]) -> int:
    """Index those of the games that are finished and not indexed yet; returns how many.

    One transaction per batch: the claim (ExplorerGame rows), the entries and the totals
    commit together.  The games' rows are locked first (in id order), so two jobs given
    the same game at once count it once: the second waits, then finds it claimed."""
    ids = sorted(set(game_ids))
    indexed = 0
    for start in range(0, len(ids), BATCH):
        chunk = ids[start : start + BATCH]
        with transaction.atomic():
            rows = list(
                Game.objects.select_for_update()
                .filter(pk__in=chunk, status=Game.Status.FINISHED)
                .exclude(start_position="")
                .order_by("pk")
                .values_list(
                    "pk", "white_id", "black_id", "result", "rated", "imported", "finished",
                    "created", "start_position",
                )
            )  # fmt: skip
            claimed = set(
                ExplorerGame.objects.filter(game_id__in=[row[0] for row in rows]).values_list(
                    "game_id", flat=True
                )
            )
            rows = [row for row in rows if row[0] not in claimed]
            if not rows:
                continue
            texts = _texts([row[0] for row in rows])
            games = [
                IndexedGame(
                    pk, white, black, result, rated, imported, finished or created, start,
                    texts.get(pk, []),
                )
                for pk, white, black, result, rated, imported, finished, created, start in rows
            ]  # fmt: skip
            ExplorerGame.objects.bulk_create([ExplorerGame(game_id=game.id) for game in games])
            indexed += index_records(games)
    return indexed


def unindexed_games() -> Any:
    """Ids of the finished games the explorer has not indexed yet (the backfill's list)."""
    return (
        Game.objects.filter(status=Game.Status.FINISHED)
        .exclude(start_position="")
        .exclude(pk__in=ExplorerGame.objects.values("game_id"))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def index_unindexed(report: Any = None) -> int:
    """Index every finished game the explorer lacks, a batch at a time (the backfill and
    the hourly catch-up); `report(total)` is called after each batch."""
    total = 0
    while True:
        batch = list(unindexed_games()[:BATCH])
        done = index_games(batch) if batch else 0
        if not done:
            return total
        total += done
        if report is not None:
            report(total)


def _texts(game_ids: list[int]) -> dict[int, list[str]]:
    from games.models import Turn as TurnRow

    texts: dict[int, list[str]] = defaultdict(list)
    rows = TurnRow.objects.filter(game_id__in=game_ids).order_by("game_id", "ply")
    for game_id, text in rows.values_list("game_id", "text"):
        texts[game_id].append(text)
    return texts


# --- Queries --------------------------------------------------------------------------


@dataclass(frozen=True)
class ExplorerFilters:
    player_id: int | None = None
    color: str | None = None  # "white" / "black": the player's colour
    rated: bool | None = None
    since: datetime.date | None = None
    until: datetime.date | None = None
    imported: bool = True  # False: leave imported games out

    @property
    def totals_suffice(self) -> bool:
        """True when the running totals answer (no player, no dates)."""
        return self.player_id is None and self.since is None and self.until is None


def _turn_json(turn: str, games: int, white: int, black: int, draws: int) -> dict[str, Any]:
    return {"turn": turn, "games": games, "white": white, "black": black, "draws": draws}


def matching_entries(key: int, filters: ExplorerFilters) -> QuerySet[ExplorerEntry]:
    """The ExplorerEntry rows of a position that pass the filters."""
    entries = ExplorerEntry.objects.filter(key=key)
    if filters.player_id is not None:
        if filters.color == "white":
            entries = entries.filter(white_id=filters.player_id)
        elif filters.color == "black":
            entries = entries.filter(black_id=filters.player_id)
        else:
            entries = entries.filter(Q(white_id=filters.player_id) | Q(black_id=filters.player_id))
    if filters.rated is not None:
        entries = entries.filter(rated=filters.rated)
    if not filters.imported:
        entries = entries.filter(imported=False)
    if filters.since is not None:
        entries = entries.filter(finished__date__gte=filters.since)
    if filters.until is not None:
        entries = entries.filter(finished__date__lte=filters.until)
    return entries


def games_at(
    position: Position, filters: ExplorerFilters | None = None, limit: int = 20
) -> list[tuple[int, int]]:
    """The newest games (by id: the key's unique index reads them in order, however many
    there are) that reached the position: (game id, ply) pairs."""
    entries = matching_entries(position_key(str(position)), filters or ExplorerFilters())
    seen: dict[int, int] = {}
    rows = entries.order_by("-game_id", "ply").values_list("game_id", "ply")[: limit * 4]
    for game_id, ply in rows:
        seen.setdefault(game_id, ply)
        if len(seen) == limit:
            break
    return list(seen.items())


def _kinds(filters: ExplorerFilters) -> Q:
    kinds = Q()
    if filters.rated is not None:
        kinds &= Q(rated=filters.rated)
    if not filters.imported:
        kinds &= Q(imported=False)
    return kinds


def _next_month(day: datetime.date) -> datetime.date | None:
    if day.month == 12:
        return (
            None if day.year == datetime.MAXYEAR else day.replace(year=day.year + 1, month=1, day=1)
        )
    return day.replace(month=day.month + 1, day=1)


def periods_covering(since: datetime.date | None, until: datetime.date | None) -> Q:
    """The ExplorerPeriod rows that add up to the days since..until (inclusive, either
    open): the whole months inside, and the days before and after them."""
    first = since or datetime.date.min
    last = until or datetime.date.max
    if first > last:
        return Q(pk__in=[])
    months_from = first if first.day == 1 else _next_month(first)
    after_last = _next_month(last)
    last_month = last.replace(day=1)  # the month of `last`, if it ends on `last`
    if after_last is not None and after_last - datetime.timedelta(days=1) != last:
        last_month = (last_month - datetime.timedelta(days=1)).replace(day=1)
    if months_from is None or months_from > last_month:
        return Q(month=False, start__range=(first, last))
    periods = Q(month=True, start__range=(months_from, last_month))
    if first < months_from:
        periods |= Q(month=False, start__range=(first, months_from - datetime.timedelta(days=1)))
    months_to = _next_month(last_month)
    if months_to is not None and months_to <= last:
        periods |= Q(month=False, start__range=(months_to, last))
    return periods


def _dated_answer(key: int, filters: ExplorerFilters) -> tuple[int, dict[str, list[int]]]:
    """Games and per-turn [games, white, black, draws] of a position within dates, no
    player: from the periods of its dated kinds, from the entries of the others."""
    kinds = ExplorerPosition.objects.filter(_kinds(filters), key=key)
    dated: list[Q] = []
    undated: list[Q] = []
    for rated, imported, is_dated in kinds.values_list("rated", "imported", "dated"):
        (dated if is_dated else undated).append(Q(rated=rated, imported=imported))
    total = 0
    turns: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    if dated:
        sums = (
            ExplorerPeriod.objects.filter(
                reduce(operator.or_, dated), periods_covering(filters.since, filters.until),
                key=key,
            )
            .values("turn")
            .annotate(n=Sum("games"), w=Sum("white"), b=Sum("black"), d=Sum("draws"))
        )  # fmt: skip
        for row in sums:
            if row["turn"]:
                turns[row["turn"]] = [row["n"], row["w"], row["b"], row["d"]]
            else:
                total += row["n"]
    if undated:
        entries = matching_entries(key, filters).filter(reduce(operator.or_, undated))
        total += entries.values("game_id").distinct().count()
        for turn, counts in _grouped(entries).items():
            totals = turns[turn]
            for i, count in enumerate(counts):
                totals[i] += count
    return total, turns


def _grouped(entries: QuerySet[ExplorerEntry]) -> dict[str, list[int]]:
    grouped = (
        entries.exclude(turn="")
        .values("turn")
        .annotate(
            games=Count("game_id"),
            white=Count("game_id", filter=Q(result=Game.Result.WHITE_WINS)),
            black=Count("game_id", filter=Q(result=Game.Result.BLACK_WINS)),
            draws=Count("game_id", filter=Q(result=Game.Result.DRAW)),
        )
    )
    return {
        row["turn"]: [row["games"], row["white"], row["black"], row["draws"]] for row in grouped
    }


def explore(position: Position, filters: ExplorerFilters | None = None) -> dict[str, Any]:
    """The explorer's answer for a position (see the module docstring)."""
    filters = filters or ExplorerFilters()
    text = str(position)
    key = position_key(text)
    if filters.totals_suffice:
        kinds = _kinds(filters)
        positions = ExplorerPosition.objects.filter(kinds, key=key)
        total = positions.aggregate(games=Sum("games"))["games"]
        rows = (
            ExplorerTurn.objects.filter(kinds, key=key)
            .values("turn")
            .annotate(
                n=Sum("games"), w=Sum("white"), b=Sum("black"), d=Sum("draws")
            )
            .order_by("-n", "turn")
        )  # fmt: skip
        turns = [_turn_json(r["turn"], r["n"], r["w"], r["b"], r["d"]) for r in rows]
        return {"position": text, "games": total or 0, "turns": turns}
    if filters.player_id is None:
        total, counts = _dated_answer(key, filters)
    else:
        entries = matching_entries(key, filters)
        total = entries.values("game_id").distinct().count()
        counts = _grouped(entries)
    ordered = sorted(counts.items(), key=lambda item: (-item[1][0], item[0]))
    turns = [_turn_json(turn, *sums) for turn, sums in ordered if sums[0]]
    return {"position": text, "games": total, "turns": turns}
