"""Every refusal the engine gives a player is translated, not passed through in English."""

from __future__ import annotations

import pytest
from django.utils import translation

from engine import IllegalTurnError, InvalidTurnError, Position
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
