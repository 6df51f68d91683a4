"""Property-based fuzzing of the archive's two imports: the website's .agn import and
the whole-database archive import.  Random input gets only the documented answers,
and whatever is stored replays cleanly through the engine.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from archive.archive_file import ArchiveError, export_lines, import_archive
from archive.imports import import_games
from archive.verification import verify_games
from games import services
from games.models import Game, Turn

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


VALID_RECORD = (
    '[White "anna"]\n[Black "boris"]\n[Result "0-1"]\n[Termination "resignation"]\n\n'
    "1. D2L D6L 2. D2-D3,D3P 0-1\n"
)
_AGN_PIECES = st.sampled_from(
    ['[White "x"]', '[Result "1-0"]', "[Start ", '"', "]", "\n", "1.", " D2L", " D6L", " *",
     " 1-0", " 0-1", " 1/2-1/2", "{", "}", " D2-D3,D3P", "[Board \"A1-2\"]", "\n\n", ";"]
)  # fmt: skip


@given(
    cut=st.integers(min_value=0, max_value=len(VALID_RECORD)),
    length=st.integers(min_value=0, max_value=10),
    insert=st.lists(_AGN_PIECES, max_size=6).map("".join),
    copies=st.integers(min_value=1, max_value=3),
)
@FUZZ
def test_agn_import_never_fails_and_stores_only_games_that_replay(
    alice, cut: int, length: int, insert: str, copies: int
) -> None:
    text = (VALID_RECORD[:cut] + insert + VALID_RECORD[cut + length :] + "\n") * copies
    report = import_games(user=alice.user, text=text)
    stored = [game.pk for game in report.stored]
    handled = len(stored) + len(report.duplicates) + len(report.rejected)
    assert handled >= 1 or not text.strip() or "[" not in text
    check = verify_games(stored)
    assert check.ok, [str(m) for m in check.mismatches]
    for game in report.stored:
        assert game.imported and game.status == Game.Status.FINISHED


@pytest.fixture
def archive_text(alice, bob) -> str:
    game = services.start_game(white=alice.user, black=bob.user)
    for ply, (player, text) in enumerate([(alice, "D2L"), (bob, "D6L")], start=1):
        services.play_turn(game=game, player=player.user, text=text, ply=ply)
    services.resign(game=Game.objects.get(pk=game.pk), player=bob.user)
    text = "".join(export_lines())
    Game.objects.all().delete()
    return text


@given(
    cut=st.integers(min_value=0, max_value=2000),
    length=st.integers(min_value=0, max_value=20),
    insert=st.text(alphabet='{}[]":,0123456789abcdefgDLP-\n ', max_size=12),
)
@FUZZ
def test_archive_import_raises_only_archive_error_and_is_all_or_nothing(
    archive_text: str, cut: int, length: int, insert: str
) -> None:
    cut = min(cut, len(archive_text))
    text = archive_text[:cut] + insert + archive_text[cut + length :]
    try:
        import_archive(io.StringIO(text))
    except ArchiveError:
        assert not Game.objects.exists() and not Turn.objects.exists()
        return
    # Accepted: whatever it stored replays (the import verified it before committing).
    assert verify_games().ok
    _delete_imported()


def _delete_imported() -> Any:
    Game.objects.all().delete()
