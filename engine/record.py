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
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Generic, Literal, TextIO, TypeVar

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

_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_][A-Za-z0-9_+#=:-]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TOKEN_RE = re.compile(
    r"""
    (?P<number>[0-9]+\.(?:\.\.)?)
  | (?P<result>1-0|0-1|1/2-1/2|\*)(?![0-9A-Za-z/-])
  | (?P<turn>[A-Za-z0-9-]+(?:[ \t]*,[ \t]*[A-Za-z0-9-]+)*)
  | (?P<other>[^\s{]+)
    """,
    re.VERBOSE,
)
_NUMBER_RE = re.compile(r"([0-9]+)(\.\.\.|\.)")

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


@dataclass
class _Token:
    kind: str  # "number", "turn", "comment", "result", "other"
    text: str
    line: int


class _GameReader:
    """Collects one game's lines, then checks it and builds its record."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.headers: dict[str, str] = {}
        self.tokens: list[_Token] = []
        self.errors: list[RecordError] = []
        self.started = False  # any content seen

    def error(self, message: str, turn: int | None = None, kind: str = "syntax") -> None:
        self.errors.append(RecordError(self.index, turn, message, kind))  # type: ignore[arg-type]

    def build(self, ended: bool, where: str) -> GameRecord:
        if not ended:
            self.error(f"the game has no result token (1-0, 0-1, 1/2-1/2 or *) {where}")
        record = GameRecord(headers=self.headers, index=self.index, errors=self.errors)
        start = self._start()
        if start is not None:
            record.start = start.to_string()
        self._movetext(record, start)
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
                self.error(f"Board tag: {exc}")
                return None
        if text is None:
            if board is not None and board != STANDARD_BOARD:
                self.error("Board tag: a game on a custom board needs a Position tag")
                return None
            return Position.standard()
        try:
            pos = Position.from_string(text)
        except InvalidPositionError as exc:
            self.error(f"Position tag: {exc}")
            return None
        if board is not None and board != pos.board:
            self.error(f"Board tag {board_text!r} differs from the board of the Position tag")
            return None
        if opening == "standard" and pos.to_string() != STANDARD_START:
            self.error("the Position tag is not the standard start: add an Opening tag")
            return None
        return pos

    def _movetext(self, record: GameRecord, start: Position | None) -> None:
        pos = start.copy() if start is not None else None
        side = 0 if start is None or start.side_to_move.letter == "w" else 1
        failed = pos is None
        for token in self.tokens:
            ply = len(record.turns) + side
            if token.kind == "comment":
                spot = len(record.turns)
                text = " ".join(token.text.split())
                if text:
                    old = record.comments.get(spot)
                    record.comments[spot] = f"{old} {text}" if old else text
                continue
            if token.kind == "number":
                m = _NUMBER_RE.fullmatch(token.text)
                assert m is not None
                want = f"{ply // 2 + 1}{'...' if ply % 2 else '.'}"
                if token.text != want and not failed:
                    self.error(
                        f"line {token.line}: turn number {token.text!r} where {want!r} belongs",
                        len(record.turns) + 1,
                    )
                    failed = True
                continue
            if token.kind == "result":
                record.result = token.text
                continue
            if token.kind == "other":
                if not failed:
                    self.error(
                        f"line {token.line}: unexpected {token.text!r} in the movetext",
                        len(record.turns) + 1,
                    )
                    failed = True
                continue
            # a turn
            number = len(record.turns) + 1
            label = f"{ply // 2 + 1}{'...' if ply % 2 else '.'} {token.text}"
            try:
                turn = Turn.parse(token.text)
            except InvalidTurnError as exc:
                record.turns.append(token.text)
                if not failed:
                    self.error(f"line {token.line}: {label}: {exc.reason}", number)
                    failed = True
                continue
            record.turns.append(str(turn))
            if failed or pos is None:
                continue
            try:
                pos.push_text(token.text)
            except IllegalTurnError as exc:
                self.error(f"line {token.line}: {label}: {exc}", number, "illegal")
                failed = True
        tag = self.headers.get("Result")
        if tag is not None and tag != record.result:
            self.error(f"the Result tag says {tag!r} but the movetext ends with {record.result!r}")
        if not failed and pos is not None:
            outcome = pos.outcome()
            termination = self.headers.get("Termination", "")
            if outcome is not None and outcome.result() != record.result:
                self.error(
                    f"the game ended {outcome.result()} by {outcome.termination.value} "
                    f"after turn {len(record.turns)}, but the result is {record.result!r}",
                    None,
                    "illegal",
                )
            elif outcome is None and termination in _RULE_TERMINATIONS:
                self.error(
                    f"the Termination tag says {termination!r} but the game is not over",
                    None,
                    "illegal",
                )


def _lines(source: str | TextIO | Iterable[str]) -> Iterator[str]:
    if isinstance(source, str):
        return iter(io.StringIO(source))
    return iter(source)


def read_games(source: str | TextIO | Iterable[str]) -> Iterator[GameRecord]:
    """Stream the games of a record text or text stream, one :class:`GameRecord` each.

    Never raises for a bad game: problems are in ``record.errors``, and the
    following games are read as usual. Reads line by line.

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
    game = _GameReader(index)
    in_movetext = False
    comment: list[str] | None = None  # open comment spanning lines
    comment_line = 0
    line_no = 0
    for line_no, raw_line in enumerate(_lines(source), 1):
        line = raw_line.rstrip("\r\n")
        rest = line
        if comment is None:
            stripped = line.strip()
            if not stripped or stripped.startswith("%"):
                continue
            if stripped.startswith("["):
                if in_movetext:
                    yield game.build(False, f"before line {line_no}")
                    index += 1
                    game = _GameReader(index)
                    in_movetext = False
                game.started = True
                m = _TAG_RE.fullmatch(stripped)
                if m is None:
                    game.error(f"line {line_no}: malformed tag pair {stripped[:40]!r}")
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
        pos = 0
        while pos < len(rest):
            if comment is not None:
                end = rest.find("}", pos)
                if end < 0:
                    comment.append(rest[pos:])
                    pos = len(rest)
                    break
                comment.append(rest[pos:end])
                game.tokens.append(_Token("comment", " ".join(comment), comment_line))
                comment = None
                pos = end + 1
                continue
            ch = rest[pos]
            if ch.isspace():
                pos += 1
                continue
            if ch == "{":
                comment = []
                comment_line = line_no
                game.started = True
                pos += 1
                continue
            if ch == ";":  # rest-of-line comment, as in PGN
                game.tokens.append(_Token("comment", rest[pos + 1 :], line_no))
                break
            m = _TOKEN_RE.match(rest, pos)
            assert m is not None
            kind = m.lastgroup or "other"
            game.tokens.append(_Token(kind, m.group(), line_no))
            game.started = True
            pos = m.end()
            if kind == "result":
                yield game.build(True, "")
                index += 1
                game = _GameReader(index)
                in_movetext = False
                # whatever follows on this line belongs to the next game
        if comment is not None:
            comment.append(" ")
    if comment is not None:
        game.tokens.append(_Token("comment", " ".join(comment), comment_line))
        game.error(f"line {comment_line}: the comment is not closed with '}}'")
    if game.started:
        yield game.build(False, "at the end of the input")
