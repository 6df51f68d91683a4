"""The .agn writer: the same text as the plain one-token-at-a-time writer it replaced.

``StringExporter`` joins the movetext once and cuts lines at spaces; the reference
below wraps one token at a time, as the writer did before.  They must agree on any
record (comments, Black to move first, custom starts, long words, any width).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.record import (
    SEVEN_TAG_ROSTER,
    BaseVisitor,
    GameRecord,
    StringExporter,
    read_games,
    write_game,
)
from engine.tests.test_properties import random_game_position


class TokenWriter(BaseVisitor[str]):
    """The reference: each token goes on the current line if it fits, else on a new one."""

    def __init__(self, columns: int = 80) -> None:
        self.columns = columns

    def begin_game(self) -> None:
        self.lines: list[str] = []
        self.current = ""

    def visit_header(self, tag: str, value: str) -> None:
        value = " ".join(value.splitlines()).replace("\\", "\\\\").replace('"', '\\"')
        self.lines.append(f'[{tag} "{value}"]')

    def end_headers(self) -> None:
        self.lines.append("")

    def _token(self, token: str) -> None:
        if not self.current:
            self.current = token
        elif len(self.current) + 1 + len(token) <= self.columns:
            self.current += " " + token
        else:
            self.lines.append(self.current)
            self.current = token

    def visit_number(self, text: str) -> None:
        self._token(text)

    def visit_turn(self, text: str) -> None:
        self._token(text)

    def visit_comment(self, text: str) -> None:
        for word in ["{", *text.replace("}", ")").split(), "}"]:
            self._token(word)

    def visit_result(self, result: str) -> None:
        self._token(result)

    def end_game(self) -> str:
        if self.current:
            self.lines.append(self.current)
        return "\n".join(self.lines) + "\n"


words = st.text(alphabet='abcxyz{}"\\é\n\t', min_size=0, max_size=12)
comments = st.lists(words, max_size=6).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    spots=st.dictionaries(st.integers(0, 60), comments, max_size=4),
    columns=st.sampled_from([1, 5, 12, 40, 80, 200]),
    name=words,
    long_word=st.booleans(),
)
def test_the_writer_wraps_exactly_as_one_token_at_a_time(
    seed: int, spots: dict[int, str], columns: int, name: str, long_word: bool
) -> None:
    rng = random.Random(seed)
    position = random_game_position(rng)
    record = GameRecord.from_position(position, headers={"White": name, "Event": "x" * 90})
    record.comments = {spot: text for spot, text in spots.items() if spot <= len(record.turns)}
    if long_word and record.turns:
        record.comments[1] = "y" * 100 + " z"
    assert record.accept(StringExporter(columns)) == record.accept(TokenWriter(columns))


def test_black_to_move_first_and_custom_boards_read_back() -> None:
    record = GameRecord(
        headers={"White": "Ann", "Black": 'Bob "B"'},
        start="C3W10,E5B01 b 0-0 A1-4,B1-5,C1-6,D1-7,E2-7",
        turns=["E5P", "C3L"],
        result="*",
        comments={1: "after black"},
    )
    text = write_game(record)
    assert text == record.accept(TokenWriter())
    assert text.splitlines()[len(SEVEN_TAG_ROSTER) : len(SEVEN_TAG_ROSTER) + 3] == [
        '[Opening "position"]',
        '[Board "A1-4,B1-5,C1-6,D1-7,E2-7"]',
        '[Position "C3W10,E5B01 b 0-0 A1-4,B1-5,C1-6,D1-7,E2-7"]',
    ]
    assert text.endswith("\n1... E5P { after black } 2. C3L *\n")
    [back] = read_games(text)
    assert back.errors == [] and back.turns == record.turns and back.comments == record.comments
    assert back.headers["Black"] == 'Bob "B"'
