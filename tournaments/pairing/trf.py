"""TRF-16 reader and writer (FIDE tournament report file, as pairing programs use it).

Understood records:

* ``001`` player lines: starting rank (columns 5-8), name (15-47), rating
  (49-52), points (81-84, checked against the results), then one 10-column
  field per round from column 92: opponent (4), colour, result code.
* ``012`` tournament name, ``XXR`` (or TRF-2026 ``142``) total rounds,
  ``XXC white1|black1`` first colour, ``XXP id id ...`` forbidden pairs
  (every pair in the list), ``XXA id pts pts ...`` acceleration points per
  round (FIDE C.04.5; columns as bbpPairings reads them: player 5-8, then
  one 4-column value every 5 columns from 10), ``XXS PAB=0.5`` (javafo) or
  ``BBU 0.5`` (bbpPairings) pairing-bye value.
* Accepted and not needed: the TRF-16 header records ``022`` to ``132``
  (city, federation, dates, type, arbiters, time control...), point-system
  records that state the standard points (``XXS W=1.0``, ``BBW 1.0``...),
  blank lines.

Any other line is refused with its line number and content: team records,
TRF-2026 records we do not support (``162``, ``240``, ``250``, ``260``...),
non-standard point systems, ``XXZ``, unknown codes. Nothing is silently
ignored.
``0000 - -`` (a forfeit loss without opponent, as some programs write for
a withdrawn player) reads as a zero-point bye, ``0000 - +`` as the
pairing-allocated bye, as bbpPairings reads them.
A round entry beyond the completed rounds is a bye or absence announced for
the round to be paired (``0000 - H``): it becomes ``Tournament.requested_byes``.
Line ends may be CR, LF or CRLF.

Any problem raises :class:`TrfError` (a ``ValueError``) naming the line; the
reader raises nothing else whatever the input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tournaments.pairing.model import (
    WIN_POINTS,
    Color,
    Outcome,
    PlayerEntry,
    RoundResult,
    Tournament,
    TournamentError,
    forbidden_pairs_from_groups,
    format_points,
)

# 0-based slices of the 1-based columns documented above.
_RANK = slice(4, 8)
_NAME = slice(14, 47)
_RATING = slice(48, 52)
_POINTS = slice(80, 84)
_RESULTS_START = 91
_ROUND_WIDTH = 10
_MAX_PLAYERS = 9999
_MAX_ROUNDS = 999

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class TrfError(ValueError):
    """A TRF file that cannot be read; ``line`` is 1-based (None: the whole file)."""

    def __init__(self, line: int | None, reason: str) -> None:
        self.line = line
        self.reason = reason
        super().__init__(f"line {line}: {reason}" if line is not None else reason)


@dataclass(frozen=True, slots=True)
class TrfDocument:
    """A tournament read from TRF, with the fields TRF has beyond our Tournament."""

    tournament: Tournament
    name: str = ""


def _int_field(text: str, line: int, what: str, *, blank: int | None = None) -> int:
    stripped = text.strip()
    if not stripped:
        if blank is None:
            raise TrfError(line, f"missing {what}")
        return blank
    if not stripped.isdigit() or not stripped.isascii():
        raise TrfError(line, f"bad {what} {stripped!r}")
    return int(stripped)


def _half_points(text: str, line: int) -> int | None:
    """Parse ``4.5`` / ``4`` / ``4,5`` into half-points; None when blank."""
    stripped = text.strip().replace(",", ".")
    if not stripped:
        return None
    match = re.fullmatch(r"(\d{1,4})(?:\.(\d))?", stripped)
    if match is None or match.group(2) not in (None, "0", "5"):
        raise TrfError(line, f"bad points {stripped!r}")
    return 2 * int(match.group(1)) + (1 if match.group(2) == "5" else 0)


def _round_entry(field: str, line: int, round_number: int) -> RoundResult:
    field = field.ljust(8)
    where = f"round {round_number}"
    opponent_text, color_text, code = field[0:4], field[5], field[7]
    if field[4] != " " or field[6] != " ":
        raise TrfError(line, f"{where}: misaligned entry {field!r}")
    opponent = _int_field(opponent_text, line, f"{where} opponent", blank=0)
    if color_text not in "wbWB- ":
        raise TrfError(line, f"{where}: bad colour {color_text!r}")
    color: Color | None = None
    if color_text in "wW":
        color = "w"
    elif color_text in "bB":
        color = "b"
    try:
        # A blank result code means a zero-point bye in TRF-16.
        outcome = Outcome(code.upper() if code != " " else "Z")
    except ValueError:
        raise TrfError(line, f"{where}: unknown result code {code!r}") from None
    if outcome.is_bye:
        if opponent or color is not None:
            raise TrfError(line, f"{where}: a bye has no opponent or colour")
        return RoundResult.bye(outcome)
    if not opponent and color is None and outcome in _UNPAIRED_FORFEITS:
        # bbpPairings and other programs accept a forfeit without opponent:
        # "-" scores like a zero-point bye, "+" like the pairing-allocated bye.
        return RoundResult.bye(_UNPAIRED_FORFEITS[outcome])
    if not opponent:
        raise TrfError(line, f"{where}: result {code!r} needs an opponent")
    if outcome.is_played and color is None:
        raise TrfError(line, f"{where}: a played game needs a colour")
    return RoundResult(opponent, color, outcome)


_UNPAIRED_FORFEITS = {
    Outcome.FORFEIT_LOSS: Outcome.ZERO_POINT_BYE,
    Outcome.FORFEIT_WIN: Outcome.PAIRING_BYE,
}


@dataclass
class _PlayerLine:
    line: int
    entry: PlayerEntry
    listed_points: int | None
    results: list[RoundResult]


def _player_line(text: str, line: int) -> _PlayerLine:
    text = text.rstrip()
    if len(text) < _RANK.stop:
        raise TrfError(line, "player line too short")
    player_id = _int_field(text[_RANK], line, "starting rank")
    if not 1 <= player_id <= _MAX_PLAYERS:
        raise TrfError(line, f"starting rank {player_id} out of range")
    name = text[_NAME].strip()
    rating = _int_field(text[_RATING], line, "rating", blank=0)
    listed_points = _half_points(text[_POINTS], line)
    results: list[RoundResult] = []
    start = _RESULTS_START
    while start < len(text):
        if len(results) >= _MAX_ROUNDS:
            raise TrfError(line, "too many rounds")
        if text[start - 2 : start].strip():
            raise TrfError(line, f"round {len(results) + 1}: entry not at column {start + 1}")
        results.append(_round_entry(text[start : start + 8], line, len(results) + 1))
        start += _ROUND_WIDTH
    return _PlayerLine(line, PlayerEntry(player_id, name, rating), listed_points, results)


def read_trf(text: str, *, require_total_rounds: bool = True) -> TrfDocument:
    """Parse TRF-16 text into a :class:`TrfDocument`; raise :class:`TrfError` on bad input.

    The completed rounds go up to the last round in which someone was paired;
    a line with fewer entries gets zero-point byes for the rounds it lacks,
    and entries past the completed rounds (one at most) must be byes or
    absences for the next round. Without ``XXR`` the file is refused unless
    ``require_total_rounds`` is false (standings of a finished event): the
    total is then the number of completed rounds.
    """
    if not isinstance(text, str):
        raise TrfError(None, "TRF input must be text")
    players: dict[int, _PlayerLine] = {}
    name = ""
    total_rounds: int | None = None
    first_color: Color = "w"
    groups: list[list[int]] = []
    accelerations: dict[int, tuple[int, ...]] = {}
    bye_points = WIN_POINTS
    for number, raw in enumerate(_LINE_BREAK.split(text), start=1):
        code = raw[:3]
        rest = raw[3:].strip()
        if not raw.strip():
            continue
        if code == "001":
            player = _player_line(raw, number)
            if player.entry.id in players:
                raise TrfError(number, f"starting rank {player.entry.id} appears twice")
            players[player.entry.id] = player
        elif code == "012":
            name = rest
        elif code in _INFORMATION_RECORDS:
            continue
        elif code in ("XXR", "142"):
            total_rounds = _int_field(rest, number, "number of rounds")
            if total_rounds > _MAX_ROUNDS:
                raise TrfError(number, f"too many rounds: {total_rounds}")
        elif code == "XXC":
            for token in rest.lower().split():
                if token == "white1":
                    first_color = "w"
                elif token == "black1":
                    first_color = "b"
                else:
                    raise TrfError(number, f"unsupported XXC option {token!r}")
        elif code == "152" and rest in ("W", "B"):
            first_color = "w" if rest == "W" else "b"
        elif code == "XXP":
            ids = [_int_field(token, number, "player in XXP") for token in rest.split()]
            if len(ids) < 2:
                raise TrfError(number, "XXP needs at least two players")
            groups.append(ids)
        elif code == "XXA":
            player_id, values = _acceleration_line(raw, number)
            if player_id in accelerations:
                raise TrfError(number, f"second XXA line for player {player_id}")
            accelerations[player_id] = values
        elif code == "XXS":
            for token in rest.split():
                key, _, value = token.partition("=")
                if key.upper() == "PAB":
                    bye_points = _bye_value(value, number)
                else:
                    _standard_points(key.upper(), value, number, raw)
        elif code == "BBU":
            bye_points = _bye_value(rest, number)
        elif code in _BBP_POINTS:
            _standard_points(code, rest, number, raw)
        elif code in _REFUSED_RECORDS:
            raise TrfError(number, f"{_REFUSED_RECORDS[code]}: {raw.strip()!r}")
        else:
            raise TrfError(number, f"unknown TRF record: {raw.strip()!r}")
    if not players:
        raise TrfError(None, "no player lines (001)")
    if total_rounds is None:
        if require_total_rounds:
            raise TrfError(None, "missing XXR (total number of rounds)")
        total_rounds = _completed_rounds(players)
    for player_id in accelerations:
        if player_id not in players:
            raise TrfError(None, f"XXA names unknown player {player_id}")
    return TrfDocument(
        _build_tournament(players, total_rounds, first_color, groups, bye_points, accelerations),
        name,
    )


# TRF-16 header records (city, federation, dates, counts, type, arbiters,
# time control, round dates): information for people, nothing to pair with.
_INFORMATION_RECORDS = frozenset(
    {"022", "032", "042", "052", "062", "072", "082", "092", "102", "112", "122", "132"}
)
# Records of TRF-16 / TRF-2026 / bbpPairings that we understand and do not support.
_REFUSED_RECORDS = {
    "013": "team records are not supported",
    "310": "team records are not supported",
    "152": "unsupported initial colour (152 W or 152 B)",
    "162": "TRF-2026 point systems (162) are not supported",
    "192": "TRF-2026 tournament types (192) are not supported",
    "240": "TRF-2026 bye records (240) are not supported; enter byes in the round columns",
    "250": "TRF-2026 acceleration records (250) are not supported; use XXA",
    "260": "TRF-2026 forbidden-pair records (260) are not supported; use XXP",
    "299": "abnormal points (299) are not supported",
    "XXZ": "XXZ is not supported",
}
# bbpPairings' point-system records and the javafo XXS keys: standard values only.
_BBP_POINTS = {"BBW": 2, "BBD": 1, "BBL": 0, "BBZ": 0, "BBF": 0}
_XXS_POINTS = {
    "W": 2,
    "WW": 2,
    "BW": 2,
    "D": 1,
    "WD": 1,
    "BD": 1,
    "L": 0,
    "WL": 0,
    "BL": 0,
    "FW": 2,
    "FL": 0,
    "ZPB": 0,
    "HPB": 1,
    "FPB": 2,
}


def _standard_points(key: str, value: str, line: int, raw: str) -> None:
    """Accept a point-system entry only when it repeats the standard value."""
    standard = _BBP_POINTS.get(key, _XXS_POINTS.get(key))
    if standard is None:
        raise TrfError(line, f"unknown XXS entry {key!r}: {raw.strip()!r}")
    try:
        points = _half_points(value, line)
    except TrfError:
        points = None
    if points != standard:
        raise TrfError(
            line,
            f"only the standard point system is supported ({key} = "
            f"{format_points(standard, ascii=True)}): {raw.strip()!r}",
        )


def _acceleration_line(raw: str, line: int) -> tuple[int, tuple[int, ...]]:
    """``XXA NNNN aaaa aaaa ...``: player in columns 5-8, then 5-column point fields."""
    text = raw.rstrip()
    if len(text) < 8 or raw[3] != " ":
        raise TrfError(line, f"bad XXA line {raw.strip()!r}")
    player_id = _int_field(text[4:8], line, "player in XXA")
    values = []
    position = 8
    while position < len(text):
        field = text[position : position + 5]
        if field[0] != " ":
            raise TrfError(line, f"misaligned XXA field {field!r}")
        value = _half_points(field[1:], line)
        values.append(0 if value is None else value)
        position += 5
    return player_id, tuple(values)


def _bye_value(text: str, line: int) -> int:
    value = _half_points(text, line)
    if value is None or value > WIN_POINTS:
        raise TrfError(line, f"bye value must be 0, 0.5 or 1, not {text.strip()!r}")
    return value


def _build_tournament(
    lines: dict[int, _PlayerLine],
    total_rounds: int,
    first_color: Color,
    groups: list[list[int]],
    bye_points: int,
    accelerations: dict[int, tuple[int, ...]],
) -> Tournament:
    count = len(lines)
    for expected in range(1, count + 1):
        if expected not in lines:
            raise TrfError(None, f"starting ranks must be 1..{count}: {expected} is missing")
    completed = _completed_rounds(lines)
    for player in lines.values():
        # A line that stops early: the missing rounds are zero-point byes
        # (a blank result in TRF-16), as bbpPairings reads them.
        missing = completed - len(player.results)
        player.results.extend([RoundResult.bye(Outcome.ZERO_POINT_BYE)] * missing)
    requested: dict[int, Outcome] = {}
    entries = []
    for player_id in range(1, count + 1):
        player = lines[player_id]
        extra = player.results[completed:]
        if len(extra) > 1:
            raise TrfError(player.line, f"results for more than round {completed + 1}")
        if extra:
            # Past the last paired round only absences can be entered (a game
            # or a pairing bye there would make that round a completed one).
            requested[player_id] = extra[0].outcome
        computed = sum(r.outcome.points(bye_points) for r in player.results)
        if player.listed_points is not None and player.listed_points != computed:
            raise TrfError(
                player.line,
                f"points {format_points(player.listed_points, ascii=True)} do not match "
                f"the results ({format_points(computed, ascii=True)})",
            )
        entry = player.entry
        entries.append(
            PlayerEntry(entry.id, entry.name, entry.rating, tuple(player.results[:completed]))
        )
    for group in groups:
        for player_id in group:
            if player_id not in lines:
                raise TrfError(None, f"XXP names unknown player {player_id}")
    if completed > total_rounds:
        raise TrfError(None, f"{completed} rounds played but XXR is {total_rounds}")
    try:
        tournament = Tournament(
            tuple(entries),
            total_rounds,
            first_color,
            forbidden_pairs_from_groups(groups),
            bye_points,
            requested,
            accelerations,
        )
        tournament.validate()
    except TournamentError as error:
        raise TrfError(_line_of(error, lines), str(error)) from error
    return tournament


def _completed_rounds(lines: dict[int, _PlayerLine]) -> int:
    """The last round with a pairing in it (a game, a forfeit or the pairing bye)."""
    completed = 0
    for player in lines.values():
        for number, result in enumerate(player.results, start=1):
            if result.opponent is not None or result.outcome is Outcome.PAIRING_BYE:
                completed = max(completed, number)
    return completed


def _line_of(error: TournamentError, lines: dict[int, _PlayerLine]) -> int | None:
    """Point a consistency error at the player line it names, when it names one."""
    match = re.match(r"player (\d+)", str(error))
    if match and int(match.group(1)) in lines:
        return lines[int(match.group(1))].line
    return None


def _field_text(text: str, width: int) -> str:
    """Fit free text in a fixed-width field: no line breaks or tabs, at most ``width``."""
    return " ".join(text.split())[:width].rstrip()


def _trf_points(half_points: int) -> str:
    """TRF writes points with one decimal: ``4.5``, ``2.0``."""
    return f"{half_points // 2}.{5 * (half_points % 2)}"


def _round_field(result: RoundResult) -> str:
    opponent = f"{result.opponent:4d}" if result.opponent else "0000"
    return f"{opponent} {result.color or '-'} {result.outcome.value}"


def write_trf(tournament: Tournament, *, name: str = "", newline: str = "\n") -> str:
    """Write a tournament as TRF-16 text that :func:`read_trf` and bbpPairings read.

    Requested byes and withdrawals for the next round are written as that
    round's entry (``0000 - H``/``Z``), as pairing programs expect. The rank
    column holds the order by points then starting rank.
    """
    points = tournament.points()
    # Entries for the next round only while one is left to pair.
    more = tournament.rounds_played < tournament.total_rounds
    absent = tournament.absent_next_round() if more else {}
    order = sorted(tournament.players, key=lambda p: (-points[p.id], p.id))
    ranks = {p.id: rank for rank, p in enumerate(order, start=1)}
    lines = []
    if name:
        lines.append(f"012 {' '.join(name.split())}")
    for player in tournament.players:
        results = list(player.results)
        if player.id in absent:
            results.append(RoundResult.bye(absent[player.id]))
        total = sum(r.outcome.points(tournament.bye_points) for r in results)
        # The rating field has four digits; no rating (0) is left blank.
        rating = f"{player.rating:4d}" if 0 < player.rating <= 9999 else "    "
        head = (
            f"001 {player.id:4d}      {_field_text(player.name, 33):<33} {rating}"
            f"{'':>28}{_trf_points(total):>4} {ranks[player.id]:4d}"
        )
        lines.append(head + "".join(f"  {_round_field(r)}" for r in results))
    lines.append(f"XXR {tournament.total_rounds}")
    lines.append(f"XXC {'white1' if tournament.first_color == 'w' else 'black1'}")
    for pair in sorted(sorted(p) for p in tournament.forbidden_pairs):
        lines.append(f"XXP {pair[0]} {pair[1]}")
    if tournament.bye_points != WIN_POINTS:
        value = _trf_points(tournament.bye_points)
        # javafo/py4swiss spell it XXS, bbpPairings BBU: write both.
        lines.append(f"XXS PAB={value}")
        lines.append(f"BBU {value}")
    for player_id, values in sorted(tournament.accelerations.items()):
        fields = "".join(f" {_trf_points(v):>4}" for v in values)
        lines.append(f"XXA {player_id:4d}{fields}")
    return newline.join(lines) + newline
