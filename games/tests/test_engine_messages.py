"""Every refusal the engine gives a player is translated, not passed through in English."""

from __future__ import annotations

import pytest
from django.utils import translation

from engine import IllegalTurnError, InvalidTurnError, Position, read_games
from games.engine_messages import translate_reason

CASES = [
    ("D2W00,D6B00 w 0-0", "Z9"),
    ("D2W00,D6B00 w 0-0", "D6-D5"),
    ("D2W00,D6B00 w 0-0", "C3-C4"),
    ("D2W00,D6B00 w 0-0", "D2-D3"),
    ("D2W00,D6B00 w 0-0", "D4"),
    ("D2W00,D6B00 w 0-0", "D6L"),
    ("D2W00,D6B00 w 0-0", "D2"),
    ("D2W00,D6B00 w 0-0", "pass"),
    ("D2W10,D6B00 w 0-0", "D2-D3"),
    ("D2W10,D6B00 w 0-0", "D2-D4,D4L"),
    ("D2W10,D6B00 w 0-0", "D2xD3,D3L"),
    ("D2W11,D3B01 w 0-0", "D2-D3,D2L"),
    ("D2W10,D3B01 w 0-0", "D2xD3,D2L"),
    ("D2W11,D3B02 w 0-0", "D2xD3,D2L"),
    ("D2W60,D6B00 w 0-0", "D2L"),
    ("D2W10,D3W00,D6B00 w 0-0", "D2-D3,D2L"),
    ("D2W00,D6B00 w 0-0", ""),
    ("D2W00,D6B00 w 0-0", "D2-D2"),
]


def reason(position: str, text: str) -> str:
    with pytest.raises((IllegalTurnError, InvalidTurnError)) as caught:
        Position.from_string(position).parse_turn(text)
    return caught.value.reason


@pytest.mark.parametrize(("position", "text"), CASES)
@pytest.mark.parametrize("language", ["ru", "eo"])
def test_engine_refusals_are_translated(position, text, language) -> None:
    english = reason(position, text)
    with translation.override(language):
        translated = translate_reason(english)
    assert translated != english, english


def test_unknown_reasons_pass_through() -> None:
    assert translate_reason("something new") == "something new"


# Records an import cannot read (engine/record.py): each error comes out translated.
BAD_RECORDS = [
    '[White "a"]\n[White "b"]\n\n1. D2L *\n',  # a tag twice
    '[White "a"]\n\n1. D2L\n',  # no result token
    '[White "a"]\n\n2. D2L *\n',  # a wrong turn number
    '[White "a"]\n\n1. D2L \u00fc *\n',  # non-ASCII in the movetext
    '[White "a"]\n\n1. D2L { open\n',  # an open comment
    '[Result "1-0"]\n\n1. D2L *\n',  # the Result tag contradicts the movetext
    '[White "a"]\n\n1. D2-D3 *\n',  # an illegal turn, on its line
    f'[White "{"x" * 100_000}"]\n\n1. D2L *\n',  # a tag pair too long
    f'[White "a"]\n\n1. D2L {{{"a" * 100_001}}} *\n',  # a comment too long
    f'[White "a"]\n\n1. D2L {{{"a" * 60_000}}} {{{"a" * 60_000}}} *\n',  # comments at one place
]


@pytest.mark.parametrize("text", BAD_RECORDS)
@pytest.mark.parametrize("language", ["ru", "eo"])
def test_record_errors_are_translated(text, language) -> None:
    messages = [error.message for record in read_games(text) for error in record.errors]
    assert messages
    with translation.override(language):
        for message in messages:
            shown = translate_reason(message)
            assert shown != message and not shown.startswith("line "), message
