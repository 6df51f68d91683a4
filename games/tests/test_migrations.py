"""Migrations that convert data, run on a database holding rows of the old schema.

The database is migrated back to the state before the change, rows are written
with plain SQL (the models describe the new schema), then migrated forward.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection

from clocks.timecontrol import ClockKind, TimeControl
from games import services
from games.models import Challenge, Game

BEFORE = "0008_move_profile_and_tokens_to_accounts"
HOUR = 3600


def insert(table: str, **values: object) -> int:
    columns = ", ".join(connection.ops.quote_name(name) for name in values)
    marks = ", ".join(["%s"] * len(values))
    quoted = connection.ops.quote_name(table)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {quoted} ({columns}) VALUES ({marks})", list(values.values()))
        cursor.execute(f"SELECT MAX(id) FROM {quoted}")
        return cursor.fetchone()[0]


def challenge_row(user_id: int, **values: object) -> dict[str, object]:
    return {
        "created_by_id": user_id, "opponent_id": None, "color": "random",
        "opening": "standard", "days_per_turn": 3, "clock_kind": "per_turn",
        "increment_hours": 0, "weekend_pause": False, "rated": True, "status": "open",
        "game_id": None, "created": "2026-11-01 10:00:00", "updated": "2026-11-01 10:00:00",
        **values,
    }  # fmt: skip


def game_row(white_id: int, black_id: int, **values: object) -> dict[str, object]:
    return {
        "white_id": white_id, "black_id": black_id, "opening": "standard",
        "start_position": "", "board": "", "status": "finished", "result": "1-0",
        "termination": "resignation", "rated": False, "imported": False,
        "days_per_turn": 3, "deadline": None, "clock_kind": "per_turn",
        "clock_increment": 0, "weekend_pause": False, "vacation_allowed": True,
        "white_clock": None, "black_clock": None, "clock_since": None,
        "clock_time_zone": "UTC", "position": "", "ply": 0,
        "created": "2026-11-01 10:00:00", "updated": "2026-11-01 10:00:00", "finished": None,
        **values,
    }  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_challenge_increments_become_seconds_and_games_keep_theirs() -> None:
    User = get_user_model()
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    call_command("migrate", "games", BEFORE, verbosity=0)
    try:
        bank = insert(
            "games_challenge",
            **challenge_row(
                alice.pk, clock_kind="bank", days_per_turn=10, increment_hours=36,
                weekend_pause=True,
            ),
        )  # fmt: skip
        plain = insert("games_challenge", **challenge_row(bob.pk, days_per_turn=5))
        # A game's increment was seconds already: kept exactly, 1.5 hours included
        # (an admin's edit), and an imported game's zero too.
        odd = insert(
            "games_game",
            **game_row(alice.pk, bob.pk, clock_kind="bank", days_per_turn=7, clock_increment=5400),
        )
        imported = insert("games_game", **game_row(bob.pk, alice.pk, imported=True))
    finally:
        call_command("migrate", verbosity=0)

    challenge = Challenge.objects.get(pk=bank)
    assert challenge.clock_increment == 36 * HOUR
    assert challenge.time_control == TimeControl.bank(10, increment_hours=36, weekend_pause=True)
    assert Challenge.objects.get(pk=plain).time_control == TimeControl.per_turn(5)
    game = Game.objects.get(pk=odd)
    assert game.time_control == TimeControl(ClockKind.BANK, 7, 5400)
    assert game.time_control.increment_hours == 1.5
    assert Game.objects.get(pk=imported).time_control == TimeControl.per_turn(3)

    # And back: whole hours again.
    call_command("migrate", "games", BEFORE, verbosity=0)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT increment_hours FROM games_challenge WHERE id = %s", [bank])
            assert cursor.fetchone()[0] == 36
    finally:
        call_command("migrate", verbosity=0)


CLOCK_KIND_TABLES = (
    "games_challenge",
    "games_game",
    "tournaments_tournament",
    "tournaments_league",
)


def clock_kind_widths() -> set[int]:
    with connection.cursor() as cursor:
        return {
            column.display_size
            for table in CLOCK_KIND_TABLES
            for column in connection.introspection.get_table_description(cursor, table)
            if column.name == "clock_kind"
        }


@pytest.mark.django_db(transaction=True)
def test_the_clock_kind_columns_widen_to_fit_every_kind_and_keep_their_values() -> None:
    from clocks.models import KIND_MAX_LENGTH

    assert max(len(kind) for kind in ClockKind.values) <= KIND_MAX_LENGTH
    User = get_user_model()
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    call_command("migrate", "games", "0013_conditional_lines", verbosity=0)
    call_command("migrate", "tournaments", "0009_seat_invitation", verbosity=0)
    try:
        assert clock_kind_widths() == {8}  # "per_turn" filled it
        # Only the columns' widths differ from today's models: rows go in through them.
        bank = services.start_game(white=alice, black=bob, time_control=TimeControl.bank(10))
        per_turn = services.create_challenge(creator=bob, opponent="alice")
    finally:
        call_command("migrate", verbosity=0)
    assert clock_kind_widths() == {KIND_MAX_LENGTH}
    assert Game.objects.get(pk=bank.pk).time_control == TimeControl.bank(10)
    assert Challenge.objects.get(pk=per_turn.pk).time_control.kind == ClockKind.PER_TURN
