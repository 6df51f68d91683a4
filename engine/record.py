"""Game records, a PGN-like text format with the extension ``.agn``.

::

    [Event "Casual game"]
    [Site "?"]
    [Date "2026.11.30"]
    [Round "?"]
    [White "Ann"]
    [Black "Bob"]
    [Result "*"]

    1. D3 C6 2. D3L { a comment } 2... C6P 3. D3-D5,E4 *

* Tag pairs first: the seven of PGN (``Event``, ``Site``, ``Date``, ``Round``,
  ``White``, ``Black``, ``Result``), then, when the game does not start from
  the standard start, ``Opening`` (``pie`` or ``position``), ``Board`` (only
  for a custom board) and ``Position`` (the start position string), then
  ``Termination`` and any other tags. Values escape ``\\`` and ``"`` with a
  backslash.
* Movetext: numbered turns (``1.`` before White's turn, ``1...`` before
  Black's when it does not follow White's turn directly), comments in braces
  (at most one place per turn; whitespace inside is not significant), and a
  result token ``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` that ends the game.
  Written lines are at most 80 columns.

:func:`read_games` streams any number of games from one text stream, line by
line; a bad game yields a :class:`GameRecord` with ``errors`` and the next
game is read normally. :func:`write_game` gives the canonical text, which
reads back to the same record.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Generic, Literal, TextIO, TypeVar

from engine._text import ASCII_SPACE, non_ascii, shown
from engine.board import STANDARD_BOARD, Board
from engine.errors import (
    IllegalTurnError,
    InvalidBoardError,
    InvalidPositionError,
    InvalidTurnError,
)
from engine.position import STANDARD_START, Position
from engine.turn import Turn

__all__ = [
    "MAX_COMMENT",
    "MAX_TAG_PAIR",
    "RESULTS",
    "SEVEN_TAG_ROSTER",
    "BaseVisitor",
    "GameRecord",
    "RecordError",
    "StringExporter",
    "read_games",
    "write_game",
    "write_games",
]

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
SEVEN_TAG_ROSTER = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
    "Result": "*",
}
_SETUP_TAGS = ("Opening", "Board", "Position", "Termination")
_RULE_TERMINATIONS = ("captures", "elimination", "repetition")

#: a tag pair (``[``, the name, the quoted value, ``]``) has at most this many characters
MAX_TAG_PAIR = 100_000
#: a comment (between its braces, or after ``;``) has at most this many characters, and
#: so have all the comments at one place in the movetext together
MAX_COMMENT = 100_000

# Possessive repeats (*+, ++) here and in _TOKEN_RE: the regex engine keeps no state to
# backtrack into for each repetition (a plain (?:[^"\\]|\\.)* took ~200 bytes of memory
# per character of a tag value, a turn token of many commas ~100).
_TAG_RE = re.compile(
    r'\[\s*([A-Za-z0-9_][A-Za-z0-9_+#=:-]*)\s+"((?:[^"\\]++|\\.)*+)"\s*\]', re.ASCII
)
_TOKEN_RE = re.compile(
    r"""
    (?P<number>[0-9]+\.(?:\.\.)?)
  | (?P<result>1-0|0-1|1/2-1/2|\*)(?![0-9A-Za-z/-])
  | (?P<turn>[A-Za-z0-9-]++(?:[ \t]*+,[ \t]*+[A-Za-z0-9-]++)*+)
  | (?P<other>[^\s{]+)
    """,
    re.VERBOSE | re.ASCII,
)
#: a movetext word: up to a space, a comment or the end of the line
_WORD_RE = re.compile(f"[^{ASCII_SPACE}{{;]+")

T = TypeVar("T")


@dataclass(frozen=True)
class RecordError:
    """A problem in one game of a record file.

    ``turn_number`` is the 1-based index of the turn in the game (None when the
    problem is not about a turn, e.g. a bad tag); ``kind`` is ``"syntax"`` or
    ``"illegal"`` (an illegal turn, or a result the rules contradict).
    """

    game_index: int
    turn_number: int | None
    message: str
    kind: Literal["syntax", "illegal"] = "syntax"

    def __str__(self) -> str:
        where = f", turn {self.turn_number}" if self.turn_number else ""
        return f"game {self.game_index}{where}: {self.message}"


@dataclass
class GameRecord:
    """One game: tag pairs, start position, turns, result and comments.

    ``comments[i]`` is the comment after the ``i``-th turn (``0``: before the
    first). ``errors`` lists problems found while reading; ``index`` is the
    1-based position of the game in its file.

    >>> pos = Position.standard()
    >>> for text in ["D3", "C6", "D3L", "C6P"]:
    ...     _ = pos.push_text(text)
    >>> record = GameRecord.from_position(pos, headers={"White": "Ann", "Black": "Bob"})
    >>> record.comments[3] = "a comment"
    >>> print(write_game(record), end="")
    [Event "?"]
    [Site "?"]
    [Date "????.??.??"]
    [Round "?"]
    [White "Ann"]
    [Black "Bob"]
    [Result "*"]
    <BLANKLINE>
    1. D3 C6 2. D3L { a comment } 2... C6P *
    >>> [back] = read_games(write_game(record))
    >>> back.turns, back.comments, back.errors, str(back.replay())
    (['D3', 'C6', 'D3L', 'C6P'], {3: 'a comment'}, [], 'C6B01,D2W00,D3W10,D6B00 w 0-0')
    """

    headers: dict[str, str] = field(default_factory=dict)
    start: str = STANDARD_START
    turns: list[str] = field(default_factory=list)
    result: str = "*"
    comments: dict[int, str] = field(default_factory=dict)
    errors: list[RecordError] = field(default_factory=list)
    index: int = 1

    @classmethod
    def from_position(
        cls,
        position: Position,
        headers: dict[str, str] | None = None,
        result: str | None = None,
    ) -> GameRecord:
        """A record of ``position``'s root and turn stack.

        ``result`` defaults to ``position.result()``. ``Termination`` is set
        from :meth:`Position.outcome` when the game is over by the rules and
        the headers do not set it; ``Opening``/``Board``/``Position`` are set
        when the start is not the standard one.
        """
        root = position.root()
        start = root.to_string()
        res = result if result is not None else position.result()
        if res not in RESULTS:
            raise ValueError(f"a result is one of {', '.join(RESULTS)}, not {res!r}")
        tags = dict(headers or {})
        tags["Result"] = res
        if start != STANDARD_START:
            tags.setdefault("Opening", "pie" if _is_pie(root) else "position")
            tags["Position"] = start
            if not root.board.is_standard:
                tags["Board"] = str(root.board)
        outcome = position.outcome()
        if outcome is not None and "Termination" not in tags:
            tags["Termination"] = outcome.termination.value
        return cls(
            headers=tags,
            start=start,
            turns=[str(t) for t in position.turn_stack],
            result=res,
        )

    def start_position(self) -> Position:
        """The start position (raises InvalidPositionError)."""
        return Position.from_string(self.start)

    def replay(self) -> Position:
        """The position after all turns (raises InvalidTurnError / IllegalTurnError)."""
        pos = self.start_position()
        for text in self.turns:
            pos.push_text(text)
        return pos

    def describe(self) -> str:
        """A short name for messages: ``"White - Black"`` or the Event."""
        white = self.headers.get("White", "?")
        black = self.headers.get("Black", "?")
        if white != "?" or black != "?":
            return f"{white} - {black}"
        return self.headers.get("Event", "?")

    def accept(self, visitor: BaseVisitor[T]) -> T:
        """Walk the record with a visitor (as python-chess's ``Game.accept``)."""
        visitor.begin_game()
        for tag, value in _ordered_headers(self).items():
            visitor.visit_header(tag, value)
        visitor.end_headers()
        visit_number, visit_turn = visitor.visit_number, visitor.visit_turn
        comments = self.comments
        ply = 1 if self.start.split()[1:2] == ["b"] else 0  # of the next turn, from 0
        if comments.get(0):
            visitor.visit_comment(comments[0])
        after_comment = True  # (or at the start): a Black turn gets its "N..." number
        for i, text in enumerate(self.turns, 1):
            if ply % 2 == 0:
                visit_number(f"{ply // 2 + 1}.")
            elif after_comment:
                visit_number(f"{ply // 2 + 1}...")
            visit_turn(text)
            ply += 1
            after_comment = bool(comments) and bool(comments.get(i))
            if after_comment:
                visitor.visit_comment(comments[i])
        visitor.visit_result(self.result)
        return visitor.end_game()


def _is_pie(pos: Position) -> bool:
    pieces = pos.pieces()
    return (
        len(pieces) == 2
        and {p.color for p in pieces} == {pos.side_to_move, pos.side_to_move.other}
        and all(p.limbs == 0 for p in pieces)
        and pos.side_to_move.letter == "w"
        and pos.scores == (0, 0)
    )


def _ordered_headers(record: GameRecord) -> dict[str, str]:
    tags = {tag: record.headers.get(tag, default) for tag, default in SEVEN_TAG_ROSTER.items()}
    tags["Result"] = record.result
    for tag in _SETUP_TAGS:
        if tag in record.headers:
            tags[tag] = record.headers[tag]
    if record.start != STANDARD_START:
        tags.setdefault("Opening", "position")
        tags["Position"] = record.start
        board = _custom_board(record.start)
        if board is not None:
            tags["Board"] = board
        # keep the canonical order Opening, Board, Position, Termination
        tags = {
            **{k: v for k, v in tags.items() if k not in _SETUP_TAGS},
            **{k: tags[k] for k in _SETUP_TAGS if k in tags},
        }
    for tag, value in record.headers.items():
        tags.setdefault(tag, value)
    return tags


@functools.lru_cache(maxsize=256)
def _custom_board(start: str) -> str | None:
    """The Board tag of a start position string: its board's text, None for the standard
    board (cached: an export writes many games from the same few custom starts)."""
    board = Position.from_string(start).board
    return None if board.is_standard else str(board)


# -- writing ------------------------------------------------------------------


class BaseVisitor(Generic[T]):
    """Receives the parts of a record in order; :meth:`end_game` returns the product."""

    def begin_game(self) -> None:
        """Called first."""

    def visit_header(self, tag: str, value: str) -> None:
        """One tag pair."""

    def end_headers(self) -> None:
        """After the last tag pair."""

    def visit_number(self, text: str) -> None:
        """A turn number such as ``3.`` or ``3...``."""

    def visit_turn(self, text: str) -> None:
        """A turn in notation."""

    def visit_comment(self, text: str) -> None:
        """A comment (without braces)."""

    def visit_result(self, result: str) -> None:
        """The result token."""

    def end_game(self) -> T:
        """Called last; returns the visitor's product."""
        raise NotImplementedError


def _escape(value: str) -> str:
    if value.isprintable() and '"' not in value and "\\" not in value:
        return value  # the usual tag value: nothing to change (line breaks are not printable)
    value = " ".join(value.splitlines())
    return value.replace("\\", "\\\\").replace('"', '\\"')


class StringExporter(BaseVisitor[str]):
    """Canonical text of a record, movetext wrapped at ``columns`` characters.

    The movetext's tokens (numbers, turns, comment words, the result: none holds a
    space) are collected, joined once and cut at the last space that fits each line,
    which is the greedy wrap of one token at a time (a token longer than a line gets
    a line of its own), in a few string operations per line instead of several per token.
    """

    def __init__(self, columns: int = 80) -> None:
        self.columns = columns
        self.lines: list[str] = []
        self.tokens: list[str] = []

    def begin_game(self) -> None:
        self.lines = []
        self.tokens = []

    def visit_header(self, tag: str, value: str) -> None:
        self.lines.append(f'[{tag} "{_escape(value)}"]')

    def end_headers(self) -> None:
        self.lines.append("")

    def visit_number(self, text: str) -> None:
        self.tokens.append(text)

    def visit_turn(self, text: str) -> None:
        self.tokens.append(text)

    def visit_comment(self, text: str) -> None:
        self.tokens.append("{")
        self.tokens.extend(text.replace("}", ")").split())
        self.tokens.append("}")

    def visit_result(self, result: str) -> None:
        self.tokens.append(result)

    def end_game(self) -> str:
        lines = self.lines
        if self.tokens:
            lines.extend(_wrap(" ".join(self.tokens), self.columns))
        self.lines, self.tokens = [], []
        return "\n".join(lines) + "\n"


def _wrap(text: str, columns: int) -> list[str]:
    """`text` (words separated by single spaces) in lines of at most `columns`
    characters, as many words on each as fit; a longer word has a line of its own."""
    lines = []
    start, end = 0, len(text)
    while end - start > columns:
        cut = text.rfind(" ", start, start + columns + 1)
        if cut < 0:  # the first word alone is longer than a line
            cut = text.find(" ", start + columns + 1)
            if cut < 0:
                break
        lines.append(text[start:cut])
        start = cut + 1
    lines.append(text[start:])
    return lines


def write_game(record: GameRecord, *, columns: int = 80) -> str:
    """The canonical text of a record (ends with a newline)."""
    return record.accept(StringExporter(columns))


def write_games(records: Iterable[GameRecord], handle: TextIO) -> int:
    """Write records to a stream, separated by blank lines; return how many."""
    n = 0
    for record in records:
        if n:
            handle.write("\n")
        handle.write(write_game(record))
        n += 1
    return n


# -- reading ------------------------------------------------------------------

#: at most this many distinct turn texts are shared between the turns of the
#: records read by one :func:`read_games` call (then the table starts afresh)
_SHARED_TEXTS = 16384


class _GameReader:
    """Reads one game as it comes: tag pairs, then the movetext token by token.

    Each movetext token is checked as it arrives (the start position is set up
    when the first movetext line begins: the tag pairs are complete then), so
    nothing grows with the length of the movetext but the record itself: its
    turns (one shared string per distinct turn text), comments and errors.
    Tokens that follow the previous game's result on its line come before
    this game's tag pairs: they wait (one line at most) for the movetext.
    """

    def __init__(self, index: int, texts: dict[str, str]) -> None:
        self.index = index
        self.headers: dict[str, str] = {}
        #: problems found while reading tag pairs and comments
        self.errors: list[RecordError] = []
        self.started = False  # any content seen
        self._texts = texts
        self._record: GameRecord | None = None
        #: problems of the start position, the movetext and the result, in order
        self._body: list[RecordError] = []
        self._pos: Position | None = None
        self._side = 0
        self._failed = False
        self._waiting: list[tuple[str, str, int]] | None = []  # None once in the movetext
        # the comments at the current place, joined when the place changes (not one
        # string grown comment by comment: that copies it again for each comment)
        self._notes: list[str] = []
        self._notes_spot = 0
        self._notes_size = 0
        self._long_comment = False  # one error per game for comments too long

    def error(self, message: str, turn: int | None = None, kind: str = "syntax") -> None:
        self.errors.append(RecordError(self.index, turn, message, kind))  # type: ignore[arg-type]

    def _error(self, message: str, turn: int | None = None, kind: str = "syntax") -> None:
        self._body.append(RecordError(self.index, turn, message, kind))  # type: ignore[arg-type]

    def comment_too_long(self, line: int, size: int, what: str = "") -> None:
        """A comment over :data:`MAX_COMMENT` characters: dropped (one error a game)."""
        if not self._long_comment:
            self._long_comment = True
            self.error(
                f"line {line}: a comment has at most {MAX_COMMENT} characters{what}, not {size}"
            )

    def _begin(self) -> GameRecord:
        record = GameRecord(headers=self.headers, index=self.index)
        start = self._start()
        if start is not None:
            record.start = start.to_string()
            self._side = 0 if start.side_to_move.letter == "w" else 1
        self._pos = start
        self._failed = start is None
        self._record = record
        return record

    def start_movetext(self) -> None:
        """A movetext line begins: no more tag pairs; check the tokens that waited."""
        waiting = self._waiting
        if waiting is None:
            return
        self._waiting = None
        self._begin()
        for token in waiting:
            self.feed(*token)

    def build(self, ended: bool, where: str) -> GameRecord:
        """The record, once the game's last line has been read."""
        self.start_movetext()
        record = self._record or self._begin()
        if not ended:
            self.error(f"the game has no result token (1-0, 0-1, 1/2-1/2 or *) {where}")
        self._flush_notes(record)
        self._finish(record)
        record.errors = self.errors + self._body
        return record

    def _start(self) -> Position | None:
        text = self.headers.get("Position")
        board_text = self.headers.get("Board")
        opening = self.headers.get("Opening", "standard")
        board: Board | None = None
        if board_text is not None:
            try:
                board = Board.parse(board_text)
            except InvalidBoardError as exc:
                self._error(f"Board tag: {exc}")
                return None
        if text is None:
            if board is not None and board != STANDARD_BOARD:
                self._error("Board tag: a game on a custom board needs a Position tag")
                return None
            return Position.standard()
        try:
            pos = Position.from_string(text)
        except InvalidPositionError as exc:
            self._error(f"Position tag: {exc}")
            return None
        if board is not None and board != pos.board:
            self._error(f"Board tag {board_text!r} differs from the board of the Position tag")
            return None
        if opening == "standard" and pos.to_string() != STANDARD_START:
            self._error("the Position tag is not the standard start: add an Opening tag")
            return None
        return pos

    def _shared(self, text: str, stored: str) -> str:
        """One string object for all the turns written ``text`` (``stored`` the first time)."""
        texts = self._texts
        if len(texts) >= _SHARED_TEXTS:
            texts.clear()
        return texts.setdefault(text, stored)

    def feed(self, kind: str, text: str, line: int) -> None:
        """One movetext token: "number", "turn", "comment", "result" or "other"."""
        if self._waiting is not None:
            self._waiting.append((kind, text, line))
            return
        record = self._record or self._begin()
        turns = record.turns
        if kind == "comment":
            words = " ".join(text.split())
            if words:
                spot = len(turns)
                if spot != self._notes_spot:
                    self._flush_notes(record)
                    self._notes_spot = spot
                size = self._notes_size + len(words) + (1 if self._notes else 0)
                if size > MAX_COMMENT:
                    self.comment_too_long(line, size, " (all the comments at one place together)")
                else:
                    self._notes.append(words)
                    self._notes_size = size
            return
        if kind == "result":
            record.result = text
            return
        ply = len(turns) + self._side
        if kind == "number":
            if self._failed:
                return
            want = f"{ply // 2 + 1}{'...' if ply % 2 else '.'}"
            if text != want:
                self._error(
                    f"line {line}: turn number {shown(text)} where {want!r} belongs",
                    len(turns) + 1,
                )
                self._failed = True
            return
        if kind == "other":
            if not self._failed:
                bad = non_ascii(text)
                why = f": {bad}; the movetext is written in ASCII" if bad else ""
                self._error(
                    f"line {line}: unexpected {shown(text)} in the movetext{why}", len(turns) + 1
                )
                self._failed = True
            return
        # a turn
        stored = self._texts.get(text)
        try:
            turn = Turn.parse(text)
        except InvalidTurnError as exc:
            turns.append(stored or self._shared(text, text))
            if not self._failed:
                self._error(f"line {line}: {_label(ply, text)}: {exc.reason}", len(turns))
                self._failed = True
            return
        if stored is None:
            canonical = str(turn)
            stored = self._shared(text, self._shared(canonical, canonical))
        turns.append(stored)
        pos = self._pos
        if self._failed or pos is None:
            return
        try:
            pos.push_text(text)
        except IllegalTurnError as exc:
            self._error(f"line {line}: {_label(ply, text)}: {exc}", len(turns), "illegal")
            self._failed = True

    def _flush_notes(self, record: GameRecord) -> None:
        if self._notes:
            record.comments[self._notes_spot] = " ".join(self._notes)
            self._notes = []
            self._notes_size = 0

    def _finish(self, record: GameRecord) -> None:
        tag = self.headers.get("Result")
        if tag is not None and tag != record.result:
            self._error(
                f"the Result tag says {shown(tag)} but the movetext ends with {record.result!r}"
            )
        pos = self._pos
        if self._failed or pos is None:
            return
        outcome = pos.outcome()
        termination = self.headers.get("Termination", "")
        if outcome is not None and outcome.result() != record.result:
            self._error(
                f"the game ended {outcome.result()} by {outcome.termination.value} "
                f"after turn {len(record.turns)}, but the result is {record.result!r}",
                None,
                "illegal",
            )
        elif outcome is None and termination in _RULE_TERMINATIONS:
            self._error(
                f"the Termination tag says {termination!r} but the game is not over",
                None,
                "illegal",
            )


def _label(ply: int, text: str) -> str:
    """A turn as messages show it: ``12... D3-D4`` (a long text shortened)."""
    return f"{ply // 2 + 1}{'...' if ply % 2 else '.'} {text if len(text) <= 80 else shown(text)}"


def _not_text(what: str) -> TypeError:
    return TypeError(
        f"read_games reads text: a str, a text stream or an iterable of str lines, not {what}"
    )


def _lines(source: str | TextIO | Iterable[str]) -> Iterator[str]:
    """The lines of ``source`` with their line breaks; a text is split as it is
    read (``io.StringIO`` would first copy all of it)."""
    if not isinstance(source, str):
        if isinstance(source, (bytes, bytearray)) or not isinstance(source, Iterable):
            raise _not_text(type(source).__name__)
        for line in source:
            if not isinstance(line, str):
                raise _not_text(f"a line of type {type(line).__name__}")
            yield line
        return
    start = 0
    size = len(source)
    while start < size:
        end = source.find("\n", start)
        end = size if end < 0 else end + 1
        yield source[start:end]
        start = end


def read_games(source: str | TextIO | Iterable[str]) -> Iterator[GameRecord]:
    """Stream the games of a record text or text stream, one :class:`GameRecord` each.

    Never raises for a bad game: problems are in ``record.errors``, and the
    following games are read as usual. Reads line by line and checks each
    turn as it reads it: memory holds one line and the record being read,
    not the tokens of its movetext. A byte-order mark before the first line
    is skipped. The movetext is ASCII (RULES.md §6); comments and tag values
    may be any text. A tag pair longer than :data:`MAX_TAG_PAIR` characters
    or a comment longer than :data:`MAX_COMMENT` is an error, and left out.
    Raises TypeError for a source that is not text (such as None, bytes or a
    binary stream).

    >>> text = '''[White "A"]
    ... [Result "*"]
    ...
    ... 1. D3 C6 2. D2-D4 *
    ...
    ... 1. D2L C6 {fine} 2. D2P 1-0
    ... '''
    >>> games = list(read_games(text))
    >>> [str(e) for e in games[0].errors]
    ["game 1, turn 3: line 4: 2. D2-D4: illegal turn 'D2-D4' in 'C6B00,D2W00,D3W00,D6B00 w 0-0': D2 has no legs"]
    >>> games[1].turns, games[1].result, games[1].comments, games[1].errors
    (['D2L', 'C6', 'D2P'], '1-0', {2: 'fine'}, [])
    """
    index = 1
    texts: dict[str, str] = {}
    game = _GameReader(index, texts)
    in_movetext = False
    comment: list[str] | None = None  # open comment spanning lines
    comment_line = 0
    comment_size = 0  # its characters so far (line breaks count one)
    for line_no, line in enumerate(_lines(source), 1):
        end = len(line)
        while end and line[end - 1] in "\r\n":
            end -= 1
        pos = 1 if line_no == 1 and line.startswith("\ufeff") else 0  # a byte-order mark
        if comment is None:
            first = pos
            while first < end and line[first] in ASCII_SPACE:
                first += 1
            if first == end or line[first] == "%":
                continue
            if line[first] == "[":
                if in_movetext:
                    yield game.build(False, f"before line {line_no}")
                    index += 1
                    game = _GameReader(index, texts)
                    in_movetext = False
                game.started = True
                last = end
                while line[last - 1] in ASCII_SPACE:
                    last -= 1
                if last - first > MAX_TAG_PAIR:
                    start = line[first : first + 40]
                    game.error(
                        f"line {line_no}: a tag pair has at most {MAX_TAG_PAIR} characters, "
                        f"not {last - first}: {start!r}"
                    )
                    continue
                m = _TAG_RE.fullmatch(line, first, last)
                if m is None:
                    start = line[first : min(last, first + 40)]
                    game.error(f"line {line_no}: malformed tag pair {start!r}")
                    continue
                tag = m.group(1)
                value = re.sub(r"\\(.)", r"\1", m.group(2))
                if tag in game.headers:
                    game.error(f"line {line_no}: tag {tag} appears twice")
                game.headers[tag] = value
                continue
        # movetext (possibly continuing a comment)
        in_movetext = True
        game.started = True
        game.start_movetext()
        plain = line.isascii()
        while pos < end:
            if comment is not None:
                close = line.find("}", pos, end)
                stop = end if close < 0 else close
                comment_size += stop - pos
                if comment_size <= MAX_COMMENT:
                    comment.append(line[pos:stop])
                elif comment:
                    comment.clear()  # too long: dropped, and said where it ends
                if close < 0:
                    break
                if comment_size > MAX_COMMENT:
                    game.comment_too_long(comment_line, comment_size)
                else:
                    game.feed("comment", " ".join(comment), comment_line)
                comment = None
                pos = close + 1
                continue
            ch = line[pos]
            if ch in ASCII_SPACE:
                pos += 1
                continue
            if ch == "{":
                comment = []
                comment_line = line_no
                comment_size = 0
                game.started = True
                pos += 1
                continue
            if ch == ";":  # rest-of-line comment, as in PGN
                if end - pos - 1 > MAX_COMMENT:
                    game.comment_too_long(line_no, end - pos - 1)
                else:
                    game.feed("comment", line[pos + 1 : end], line_no)
                break
            if not plain:
                word = _WORD_RE.match(line, pos, end)
                if word is not None and not word.group().isascii():
                    # one error for the whole word ('paſs', 'D3\xa0C6'), not its pieces
                    game.feed("other", word.group(), line_no)
                    game.started = True
                    pos = word.end()
                    continue
            m = _TOKEN_RE.match(line, pos, end)
            assert m is not None
            kind = m.lastgroup or "other"
            game.feed(kind, m.group(), line_no)
            game.started = True
            pos = m.end()
            if kind == "result":
                yield game.build(True, "")
                index += 1
                game = _GameReader(index, texts)
                in_movetext = False
                # whatever follows on this line belongs to the next game
        if comment is not None:
            comment_size += 1
            if comment_size <= MAX_COMMENT:
                comment.append(" ")
    if comment is not None:
        if comment_size > MAX_COMMENT:
            game.comment_too_long(comment_line, comment_size)
        else:
            game.feed("comment", " ".join(comment), comment_line)
        game.error(f"line {comment_line}: the comment is not closed with '}}'")
    if game.started:
        yield game.build(False, "at the end of the input")
