"""A database created by main before the redesign migrates forward with its data intact.

``data/before_redesign.json`` holds rows that main wrote at commit 4d4b7f8 (load_demo,
the built-in bots, a token, a bank-clock game, a round robin, rated games, a bot match).
The test takes the schema back to that commit's migrations, writes those rows as they
were, migrates forward, and reads them through today's models and services.
"""

from __future__ import annotations

import datetime
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder

DATA = json.loads((Path(__file__).parent / "data" / "before_redesign.json").read_text())

# The last migration of each app at 4d4b7f8; apps that did not exist then go to zero.
OLD_LEAVES = {
    "games": "0007_termination_adjudication",
    "notifications": "0001_initial",
    "tournaments": "0003_half_point_byes",
}
# Parents before children (foreign keys).
TABLE_ORDER = [
    "auth_user",
    "games_profile",
    "games_apitoken",
    "games_game",
    "games_challenge",
    "games_turn",
    "games_botmatch",
    "games_botmatchgame",
    "games_ratingchange",
    "games_event",
    "notifications_notification",
    "tournaments_tournament",
    "tournaments_participant",
]


def _value(raw: Any) -> Any:
    if isinstance(raw, dict) and "$datetime" in raw:
        return datetime.datetime.fromisoformat(raw["$datetime"])
    if isinstance(raw, dict) and "$json" in raw:
        return json.dumps(raw["$json"])
    return raw


def _project_apps_with_migrations() -> list[str]:
    return sorted(
        {app for app, _name in MigrationRecorder(connection).applied_migrations()}
        & {config.label for config in apps.get_app_configs()}
    )


def _write_old_rows() -> None:
    json_cast = "::jsonb" if connection.vendor == "postgresql" else ""
    with connection.cursor() as cursor:
        for table in TABLE_ORDER:
            block = DATA["rows"].get(table)
            if not block:
                continue
            columns = block["columns"]
            for row in block["values"]:
                marks = [
                    f"%s{json_cast}" if isinstance(raw, dict) and "$json" in raw else "%s"
                    for raw in row
                ]
                cursor.execute(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(marks)})",
                    [_value(raw) for raw in row],
                )


def _reset_sequences() -> None:
    # Rows came with their ids: new rows must not collide with them (PostgreSQL).
    sql = io.StringIO()
    labels = [config.label for config in apps.get_app_configs() if config.models_module]
    call_command("sqlsequencereset", *labels, stdout=sql, no_color=True)
    if sql.getvalue().strip() and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql.getvalue())


def _rows(table: str) -> list[dict[str, Any]]:
    block = DATA["rows"][table]
    return [dict(zip(block["columns"], row, strict=True)) for row in block["values"]]


@pytest.mark.django_db(transaction=True)
def test_a_database_of_main_before_the_redesign_migrates_forward_with_its_data() -> None:
    for app in _project_apps_with_migrations():
        if app in OLD_LEAVES:
            call_command("migrate", app, OLD_LEAVES[app], verbosity=0)
    for app in _project_apps_with_migrations():
        # One of the project's apps: a folder of the project itself.
        ours = Path(apps.get_app_config(app).path).parent == Path(__file__).parents[2]
        if ours and app not in OLD_LEAVES:
            call_command("migrate", app, "zero", verbosity=0)
    _write_old_rows()

    call_command("migrate", verbosity=0)
    _reset_sequences()

    from accounts.models import ApiToken, Profile
    from accounts.services import user_for_token
    from games.models import Game, Turn

    profiles = {p["user_id"]: p for p in _rows("games_profile")}
    assert Profile.objects.count() == len(profiles)
    for profile in Profile.objects.all():
        old = profiles[profile.user_id]
        assert (profile.display_name, profile.is_bot, profile.rating, profile.language) == (
            old["display_name"],
            old["is_bot"],
            old["rating"],
            old["language"],
        )
    assert ApiToken.objects.count() == len(_rows("games_apitoken"))
    alice = user_for_token(DATA["token"])
    assert alice is not None and alice.get_username() == "alice"

    assert Game.objects.count() == len(_rows("games_game"))
    assert Turn.objects.count() == len(_rows("games_turn"))
    # Every moved table is read by its model, wherever the model lives now.
    by_table = {model._meta.db_table: model for model in apps.get_models()}
    for table in TABLE_ORDER:
        assert by_table[table].objects.count() == len(
            DATA["rows"].get(table, {"values": []})["values"]
        ), table

    # The bank clock of the old game survives the move of its fields.
    bank = Game.objects.get(pk=DATA["bank_game"])
    old_bank = next(g for g in _rows("games_game") if g["id"] == DATA["bank_game"])
    assert (bank.clock_kind, bank.days_per_turn, bank.weekend_pause) == (
        old_bank["clock_kind"],
        old_bank["days_per_turn"],
        old_bank["weekend_pause"],
    )

    # Every game replays to its stored position, and play goes on (new rows get new ids).
    # (The rows have no e-mail addresses: this turn queues no task that the session's
    # worker would run while the test database is being flushed.)
    out = io.StringIO()
    call_command("verify_games", stdout=out)
    assert f"{len(_rows('games_game'))} games checked, 0 mismatches" in out.getvalue()
    from games import services

    game = Game.objects.get(pk=DATA["bank_game"])
    mover = game.white if game.to_move == "white" else game.black
    position = services.replay(game)
    turn = str(next(iter(position.legal_turns)))
    game, created = services.play_turn(game=game, player=mover, text=turn, ply=game.ply + 1)
    assert created and game.ply == old_bank["ply"] + 1
