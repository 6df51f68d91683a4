"""A refused tournament file's reason is shown in the reader's language."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from tournaments.pairing import TrfError, read_trf
from tournaments.trf_messages import translate_trf_error

FILES = [
    "zzz 12345\n",  # an unknown record
    "012 Open\n",  # no player lines
    "001    1      Ann\n",  # a player line too short
    "013 team\n",  # a team record
    "XXP 1\n001    1\n",  # XXP with one player
]


@pytest.mark.parametrize("text", FILES)
@pytest.mark.parametrize("language", ["ru", "eo"])
def test_trf_refusals_are_translated(text, language) -> None:
    with pytest.raises(TrfError) as refusal:
        read_trf(text)
    reason = refusal.value.reason
    with translation.override(language):
        assert translate_trf_error(reason) != reason, reason


def test_importer_refusals_are_looked_up_and_unknown_ones_pass_through() -> None:
    with translation.override("ru"):
        assert translate_trf_error("A tournament needs at least two players.") != (
            "A tournament needs at least two players."
        )
        assert translate_trf_error("something new") == "something new"
        assert translate_trf_error("") == ""


# The rarer refusals, each from a real file: a small valid one (the pairing package's
# test file) damaged in one place.
SMALL = (
    "012 Club Open\n"
    "001    1      Ann                               1800"
    "                             1.5    1     2 w 1     3 b =\n"
    "001    2      Bob                               1700"
    "                             0.0    4     1 b 0     4 w -\n"
    "001    3      Cid                               1650"
    "                             1.5    2  0000 - U     1 w =\n"
    "001    4      Dee                                   "
    "                             2.0    3  0000 - H     2 b +  0000 - H\n"
    "XXR 5\n"
    "XXC black1\n"
    "XXP 1 4\n"
)
RARE_FILES = [
    SMALL.replace("0.0    4", "0.5    4"),  # points that do not match
    SMALL.replace("   2 w 1", "   2 w 7"),  # an unknown result code
    SMALL.replace("   2 w 1", "   2 x 1"),  # a bad colour
    SMALL.replace("   2 w 1", "   2 b 1"),  # both players with one colour
    SMALL.replace("   2 w 1", "   2 w =").replace("1.5    1 ", "1.0    1 "),  # results
    SMALL.replace("   2 w 1", "   2w 1"),  # a misaligned entry
    SMALL.replace("   2 w 1", "   0 w 1"),  # a result without an opponent
    SMALL.replace("   2 w 1", "   2 - 1"),  # a game without a colour
    SMALL.replace("  0000 - H\n", "  0003 - H\n"),  # a bye with an opponent
    SMALL.replace("XXC black1", "XXC rank"),
    SMALL.replace("001    3", "001    7"),  # starting ranks with a gap
    SMALL.replace("  0000 - H\n", "     1 b 1\n").replace("2.0    3", "2.5    3"),
    SMALL.replace("XXR 5", "XXR 1"),  # more rounds played than XXR
    SMALL.replace("XXP 1 4", "XXP 1 9"),
    SMALL + "XXA    9  1.0\n",
    SMALL + "XXA    1x 1.0\n",
    SMALL + "XXA    1  x.0\n",
    SMALL + "XXA\n",
    SMALL + "XXA    1  1.0\nXXA    1  0.5\n",
    SMALL + "BBW 2.0\n",
    SMALL + "XXS QQ=1\n",
    *(SMALL + f"{code} x\n" for code in ("013", "152", "162", "192", "240", "250", "260", "299")),
    SMALL + "XXZ 3\n",
]
_QUOTED = re.compile(r"'[^']*'|\[[^\]]*\]")


def _english_words(text: str) -> set[str]:
    """The lower-case words of four letters or more, outside quotes (the file's own text)."""
    return set(re.findall(r"\b[a-z]{4,}\b", _QUOTED.sub(" ", text)))


@pytest.mark.parametrize("text", RARE_FILES)
@pytest.mark.parametrize("language", ["ru", "eo"])
def test_rarer_trf_refusals_are_translated_whole(text, language) -> None:
    with pytest.raises(TrfError) as refusal:
        read_trf(text)
    reason = refusal.value.reason
    with translation.override(language):
        shown = translate_trf_error(reason)
    left = _english_words(reason) & _english_words(shown)
    assert not left, f"{reason!r} → {shown!r}"
