"""Property-based fuzzing of the platform's parsers beyond the engine's own.

(The engine fuzzes Turn.parse, Position.from_string, Board.parse and read_games in
engine/tests/test_properties.py; the pairing package fuzzes its TRF reader.)  Here:
the API's turn and pie-setup inputs and start positions given to the game service
(the archive's imports: archive/tests/test_reliability_fuzz.py).  Random input gets
only the documented answers, and whatever is stored replays cleanly through the engine.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine import Position
from games import errors, services
from games.models import Game
from games.tests.helpers import replays_to_its_cache

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
    # parse_error: a NUL or a lone surrogate in the body (core.api.parsers).
    400: {"invalid", "invalid_turn", "parse_error"},
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
    assert replays_to_its_cache(game.pk)


@given(white=st.text(max_size=5), black=st.text(max_size=5))
@FUZZ
def test_pie_setup_answers_only_documented_codes(alice, bob, white: str, black: str) -> None:
    game = services.start_game(white=alice.user, black=bob.user, opening=Game.Opening.PIE)
    answer = alice.client.post(
        f"/api/v1/games/{game.pk}/setup", {"white": white, "black": black}, format="json"
    )
    assert answer.status_code in (200, 400), answer.json()
    if answer.status_code == 400:
        assert answer.json()["code"] in ("invalid", "invalid_setup", "parse_error")
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
    assert replays_to_its_cache(game.pk)
