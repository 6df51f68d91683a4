"""Tournaments created before they had a whole time control migrate to per turn."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection

from clocks.timecontrol import TimeControl
from tournaments.models import Tournament

BEFORE = "0003_half_point_byes"


@pytest.mark.django_db(transaction=True)
def test_old_tournaments_keep_their_days_per_turn_as_a_per_turn_control() -> None:
    organiser = get_user_model().objects.create_user("olga")
    call_command("migrate", "tournaments", BEFORE, verbosity=0)
    try:
        row = {
            "name": "Old Cup", "organiser_id": organiser.pk, "format": "roundrobin",
            "rounds": None, "opening": "standard", "days_per_turn": 7, "rated": True,
            "registration_opens": None, "starts_at": None, "max_players": None,
            "bye_points": 2, "tiebreaks": "SB", "all_at_once": False, "allow_bots": False,
            "late_entries": False, "half_point_byes": 0, "status": "registration",
            "current_round": 0, "created": "2026-11-01 10:00:00", "started": None,
            "finished": None,
        }  # fmt: skip
        columns = ", ".join(connection.ops.quote_name(name) for name in row)
        marks = ", ".join(["%s"] * len(row))
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO tournaments_tournament ({columns}) VALUES ({marks})",
                list(row.values()),
            )
    finally:
        call_command("migrate", verbosity=0)
    assert Tournament.objects.get(name="Old Cup").time_control == TimeControl.per_turn(7)
