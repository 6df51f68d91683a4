"""Property-based fuzzing of the platform's parsers beyond the engine's own.

(The engine fuzzes Turn.parse, Position.from_string, Board.parse and read_games in
engine/tests/test_properties.py; the pairing package fuzzes its TRF reader.)  Here:
the API's turn and pie-setup inputs, start positions given to the game service,
the .agn import of the website and the archive import.  Random input gets only the
documented answers, and whatever is stored replays cleanly through the engine.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine import Position
from games import errors, services
from games.archive_file import ArchiveError, export_lines, import_archive
from games.models import Game, Turn
from games.verification import verify_games

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Text that looks like turns: cells, moves, actions, separators, and some noise.
_TURN_PIECES = st.sampled_from(
    ["D2", "D6", "C3", "E5", "A1", "G7", "Z99", "-", "x", ",", "L", "P", "A", "+", " ", "D",
     "2", "0", "é", "\x00", "\n", "pass", "--", ",,"]
)  # fmt: skip
turn_texts = st.one_of(st.text(max_size=30), st.lists(_TURN_PIECES, max_size=8).map("".join))

TURN_CODES = {
    201: {None},
    200: {None},
    400: {"invalid", "invalid_turn"},
    409: {"stale_ply", "not_your_turn", "game_over"},
    422: {"illegal_turn"},
}


@given(text=turn_texts, ply_offset=st.sampled_from([0, 1, 1, 1, 2, -1]), black=st.booleans())
@FUZZ
def test_turn_endpoint_answers_only_documented_codes(
    alice, bob, text: str, ply_offset: int, black: bool
) -> None:
    game = Game.objects.filter(white=alice.user, black=bob.user).order_by("-id").first()
    if game is None or game.status != Game.Status.ACTIVE:
        game = services.start_game(white=alice.user, black=bob.user)
    player = bob if black else alice
    answer = player.client.post(
        f"/api/v1/games/{game.pk}/turns",
        {"ply": max(1, game.ply + ply_offset), "turn": text},
        format="json",
    )
    body = answer.json()
    assert answer.status_code in TURN_CODES, (answer.status_code, body)
    assert body.get("code") in TURN_CODES[answer.status_code], body
    game.refresh_from_db()
    assert verify_games([game.pk]).ok


@given(white=st.text(max_size=5), black=st.text(max_size=5))
@FUZZ
def test_pie_setup_answers_only_documented_codes(alice, bob, white: str, black: str) -> None:
    game = services.start_game(white=alice.user, black=bob.user, opening=Game.Opening.PIE)
    answer = alice.client.post(
        f"/api/v1/games/{game.pk}/setup", {"white": white, "black": black}, format="json"
    )
    assert answer.status_code in (200, 400), answer.json()
    if answer.status_code == 400:
        assert answer.json()["code"] in ("invalid", "invalid_setup")
    else:
        placed = Game.objects.get(pk=game.pk)
        assert Position.from_string(placed.start_position) is not None


_POSITION_PIECES = st.sampled_from(
    ["D2W10", "D6B00", "C3W21", "E5B11", "Z9W00", "D2X00", ",", " ", "w", "b", "0-0", "5-0",
     "A1-4,B1-5", "A1-2", "w 0-0", "b 3-1", "D2W99", "\t"]
)  # fmt: skip
position_texts = st.one_of(
    st.text(max_size=40), st.lists(_POSITION_PIECES, max_size=8).map("".join)
)


@given(text=position_texts)
@example(text="D2W10 w 0-0")  # found by this test: Black has no adaptoid, the game is over
@FUZZ
def test_start_positions_are_games_or_invalid_input(alice, bob, text: str) -> None:
    try:
        game = services.start_game(white=alice.user, black=bob.user, start_position=text)
    except errors.InvalidInput as exc:
        assert "start_position" in exc.details.get("fields", {})
        return
    # Whatever was accepted is stored canonically and plays on through the engine.
    assert game.position == str(Position.from_string(game.start_position))
    assert verify_games([game.pk]).ok


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
    from games import archive

    text = (VALID_RECORD[:cut] + insert + VALID_RECORD[cut + length :] + "\n") * copies
    report = archive.import_games(user=alice.user, text=text)
    stored = [game.pk for game in report.stored]
    assert len(stored) + len(report.rejected) >= 1 or not text.strip() or "[" not in text
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
