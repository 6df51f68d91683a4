"""Input built to break the parsers: huge numbers, non-ASCII look-alikes, odd whitespace.

Every parser answers with the engine's own error (a ValueError subclass whose
message names the input), never a bare ValueError from deep inside Python.
"""

from __future__ import annotations

import io
import pathlib
import subprocess
import sys

import pytest

from engine import (
    Board,
    InvalidBoardError,
    InvalidPositionError,
    InvalidTurnError,
    Piece,
    Position,
    Turn,
    read_games,
)

ROOT = pathlib.Path(__file__).resolve().parents[2]
NINES = "9" * 5000  # more digits than int() converts (sys.get_int_max_str_digits() is 4300)


@pytest.mark.parametrize(
    "text",
    [f"D{NINES}", f"D2-D{NINES}", f"D{NINES}-D4,D4P", f"D2-D3,D{NINES}L", f"D2-D3 , D{NINES}"],
)
def test_turns_with_huge_rows_are_invalid_turns(text: str) -> None:
    with pytest.raises(InvalidTurnError, match="a row is a number 1-99") as info:
        Turn.parse(text)
    assert info.value.text == text
    message = str(info.value)
    assert message.startswith("invalid turn 'D")  # the input is named, shortened:
    assert f"({len(text)} characters)" in message and len(message) < 300


def test_a_huge_row_is_invalid_in_a_position_too() -> None:
    with pytest.raises(InvalidTurnError, match="a row is a number 1-99"):
        Position.standard().push_text(f"D{NINES}")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (f"D2W00,D6B00 w 0-{NINES}", "a score has at most 9 digits, not 5000"),
        (f"D2W00,D6B00 w {NINES}-0", "a score has at most 9 digits"),
        (f"D2W00,D6B00 w 0-0 A1-{NINES}", "a row of 5000 digits is outside 1-99"),
        (f"D2W00,D{NINES}B00 w 0-0", "is not on the board"),
        (f"D2W00,D6B00 w 0-0 A{NINES}", "a row of 5000 digits is outside 1-99"),
    ],
)
def test_positions_with_huge_numbers_are_invalid_positions(text: str, reason: str) -> None:
    with pytest.raises(InvalidPositionError, match=reason) as info:
        Position.from_string(text)
    assert str(info.value).startswith("invalid position 'D2W00,D")
    assert len(str(info.value)) < 700


def test_scores_with_leading_zeros_are_still_accepted() -> None:
    assert str(Position.from_string(f"D2W00,D6B00 w {'0' * 5000}-000000001")) == (
        "D2W00,D6B00 w 0-1"
    )
    assert str(Position.from_string("D2W00,D6B00 w 123456789-0")).endswith(" 123456789-0")


@pytest.mark.parametrize("text", [f"A1-{NINES}", f"A{NINES}", f"A{NINES}-{NINES},B1"])
def test_boards_with_huge_rows_are_invalid_boards(text: str) -> None:
    with pytest.raises(InvalidBoardError, match="a row of 5000 digits is outside 1-99"):
        Board.parse(text)


def test_boards_keep_their_row_messages() -> None:
    with pytest.raises(InvalidBoardError, match="row 100 is outside 1-99"):
        Board.parse("A98-100")
    with pytest.raises(InvalidBoardError, match="row 1000 is outside 1-99"):
        Board.parse("A98-1000")
    with pytest.raises(InvalidBoardError, match="a row of 5 digits is outside 1-99"):
        Board.parse("A98-10000")
    assert str(Board.parse("A001-002")) == "A1-2"


@pytest.mark.parametrize(
    "text",
    [
        "pa\u017fs",  # ſ (long s): "paſs".upper() == "PASS"
        "\u01313",  # ı (dotless i): "ı3".upper() == "I3"
        "\u017f2",  # "ſ2".upper() == "S2"
        "D\uff13",  # fullwidth digit 3
        "\u2003D3",  # em space before
        "D3\u00a0",  # no-break space after
        "D2-D4\u3000,D4P",  # ideographic space before the comma
        "D2-D4,\u00a0D4P",
        "D2\u2010D4",  # a Unicode hyphen
        "\u212a3",  # Kelvin sign: "K".lower() == "k"
    ],
)
def test_turns_are_ascii_only(text: str) -> None:
    with pytest.raises(InvalidTurnError, match="non-ASCII .*: a turn is written in ASCII"):
        Turn.parse(text)
    with pytest.raises(InvalidTurnError, match="non-ASCII"):
        Position.standard().parse_turn(text)


def test_ascii_spaces_and_case_are_still_accepted() -> None:
    assert str(Turn.parse(" d2-d4\t,\td4p\n")) == "D2-D4,D4P"
    assert Turn.parse("PaSs").is_pass


@pytest.mark.parametrize(
    "text",
    [
        "D2W00,D6B00\u00a0w 0-0",
        "D2W00,D6B00 w 0-0\u2003",
        "\u2003D2W00,D6B00 w 0-0",
        "D2W00,D6B00 w 0-0 A1-4,B1-5,C1-6,D1-7,E2-7,F3-7,G4-\uff17",
        "D2\u0461\uff10\uff10 w 0-0",
        "D2W00,D6B00 w 0\u20130",  # en dash
    ],
)
def test_position_strings_are_ascii_only(text: str) -> None:
    with pytest.raises(
        InvalidPositionError, match="non-ASCII .*: a position string is written in ASCII"
    ):
        Position.from_string(text)


def test_position_fields_are_separated_by_ascii_whitespace_only() -> None:
    with pytest.raises(InvalidPositionError, match="got 2 fields"):
        Position.from_string("D2W00,D6B00\x1cw 0-0")  # str.split() splits at U+001C
    assert str(Position.from_string(" D2W00,D6B00\tw\n0-0 ")) == "D2W00,D6B00 w 0-0"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "A1-4,\u00a0B1-5",
            "non-ASCII whitespace '\\\\xa0' \\(U\\+00A0\\): a board is written in ASCII",
        ),
        ("A1-\u0663", "non-ASCII character"),
        ("A1-4\u2003", "non-ASCII whitespace"),
        ("\u00c41-2", "a column is a letter A-Z"),
        ("\u017f1-2", "a column is a letter A-Z"),  # not S1-2
    ],
)
def test_boards_are_ascii_only(text: str, reason: str) -> None:
    with pytest.raises(InvalidBoardError, match=reason):
        Board.parse(text)


def test_cell_names_are_ascii_only() -> None:
    # "ı3".upper() == "I3" and "ſ2".upper() == "S2": neither names a cell
    for board_text, name, fake in (("I1-4", "i3", "\u01313"), ("S1-4", "s2", "\u017f2")):
        board = Board.parse(board_text)
        assert name in board and fake not in board
        with pytest.raises(KeyError):
            board.coordinates(fake)
        with pytest.raises(KeyError):
            board.neighbours(fake)
        pos = Position.pie_setup(name, board.cells[0], board)
        assert pos.piece_at(name) is not None
        with pytest.raises(KeyError):
            pos.piece_at(fake)
        with pytest.raises(InvalidPositionError, match="not a cell of the board"):
            Position.pie_setup(fake, board.cells[0], board)


def test_piece_parse_raises_the_engines_error() -> None:
    for text in ("D0W00", "D100W00", "\u01314B22", f"D{NINES}W00", "D4B43", "D4X00"):
        with pytest.raises(InvalidPositionError, match="is not a piece such as 'D4B22'"):
            Piece.parse(text)
    assert Piece.parse("z99w06") == Piece.parse("Z99W06")


# -- game records -------------------------------------------------------------------


def test_read_games_survives_huge_numbers() -> None:
    text = (
        f"1. D{NINES} *\n\n{NINES}. D3 *\n\n"
        f'[Position "D2W00,D6B00 w 0-{NINES}"]\n[Opening "position"]\n\n1. D3 *\n\n'
        f'[Board "A1-{NINES}"]\n\n1. D3 *\n'
    )
    games = list(read_games(text))
    assert len(games) == 4
    messages = [g.errors[0].message for g in games]
    assert "a row is a number 1-99" in messages[0]
    assert "turn number '999" in messages[1] and "(5001 characters)" in messages[1]
    assert "a score has at most 9 digits" in messages[2]
    assert "a row of 5000 digits is outside 1-99" in messages[3]
    assert all(len(m) < 1000 for m in messages)


def test_a_byte_order_mark_before_the_first_line_is_skipped() -> None:
    text = '\ufeff[Event "x"]\n[Result "*"]\n\n1. D3 C6 *\n'
    [game] = read_games(text)
    assert game.errors == [] and game.headers["Event"] == "x" and game.turns == ["D3", "C6"]
    [game] = read_games(io.StringIO("\ufeff1. D3 C6 *\n"))
    assert game.errors == [] and game.turns == ["D3", "C6"]
    # only there: elsewhere it is a stray character
    [game] = read_games('[Event "x"]\n\n1. D3 \ufeffC6 *\n')
    assert "non-ASCII character '\\ufeff' (U+FEFF)" in game.errors[0].message


def test_a_file_with_a_byte_order_mark_checks_clean(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "bom.agn"
    path.write_text('[Event "x"]\n\n1. D3 C6 *\n', encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    result = subprocess.run(
        [sys.executable, "-m", "engine", "check", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "game 1: ok (x, 2 turns, *)\n"


@pytest.mark.parametrize(
    ("movetext", "word"),
    [
        ("1. pa\u017fs *", "pa\u017fs"),
        ("1. \u01313 *", "\u01313"),
        ("1. D3\u00a0C6 *", "D3\u00a0C6"),
        ("1. D3 \u2003 C6 *", "\u2003"),
        ("1.\u3000D3 *", "1.\u3000D3"),
    ],
)
def test_record_movetext_is_ascii_only(movetext: str, word: str) -> None:
    [game] = read_games(f'[Event "x"]\n\n{movetext}\n')
    [error] = game.errors
    assert error.kind == "syntax" and error.turn_number is not None
    assert f"unexpected {word!r} in the movetext: non-ASCII" in error.message
    assert "the movetext is written in ASCII" in error.message


def test_a_line_of_unicode_spaces_is_not_blank() -> None:
    [game] = read_games('[Event "x"]\n\u00a0\n1. D3 *\n')
    assert "non-ASCII whitespace" in game.errors[0].message


def test_comments_and_tag_values_may_be_any_text() -> None:
    [game] = read_games('[White "\u00c6r\u00f8 \u017f"]\n\n1. D3 { pa\u017fs \u2003 } C6 *\n')
    assert game.errors == []
    assert game.headers["White"] == "\u00c6r\u00f8 \u017f"
    assert game.comments == {1: "pa\u017fs"}  # whitespace in comments is not significant
