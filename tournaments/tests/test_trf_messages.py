"""A refused tournament file's reason is shown in the reader's language."""

from __future__ import annotations

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
