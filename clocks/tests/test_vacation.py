"""Vacation and clock preferences on profiles: the allowance, the API and the page.

(What vacation does to the clocks of games: games/tests/test_timekeeping.py.)
"""

from __future__ import annotations

import datetime as dt

import pytest

from accounts.models import Profile
from clocks import services
from clocks.errors import NoVacationDays

pytestmark = pytest.mark.django_db


def test_vacation_days_are_a_yearly_allowance(alice) -> None:
    december = dt.datetime(2025, 12, 1, tzinfo=dt.UTC)
    services.take_vacation(user=alice.user, days=14, now=december)
    # Still away when the planned end passed: charged up to the planned end only.
    back = december + dt.timedelta(days=19)
    assert services.end_vacation(user=alice.user, now=back).days_left == 0
    with pytest.raises(NoVacationDays):
        services.take_vacation(user=alice.user, now=back)
    # January: a fresh allowance.
    january = dt.datetime(2026, 1, 2, tzinfo=dt.UTC)
    assert services.take_vacation(user=alice.user, days=1, now=january).days_left == 14


def test_vacation_api(alice, api) -> None:
    assert api.put("/api/v1/me/vacation", {}, format="json").status_code == 401
    taken = alice.client.put("/api/v1/me/vacation", {"days": 3}, format="json")
    assert taken.status_code == 200, taken.json()
    assert taken.json()["on_vacation"] is True and taken.json()["days_left"] == 14
    assert alice.client.get("/api/v1/me/vacation").json()["on_vacation"] is True
    back = alice.client.delete("/api/v1/me/vacation")
    assert back.status_code == 200
    assert back.json()["on_vacation"] is False and back.json()["days_left"] == 13
    too_long = alice.client.put("/api/v1/me/vacation", {"days": 20}, format="json")
    assert too_long.status_code == 409, too_long.json()
    assert too_long.json() == {
        "code": "no_vacation_days",
        "error": "You have only 13 vacation days left this year.",
        "days_left": 13,
    }
    longest = services.MAX_VACATION_DAYS
    for garbage in ('{"days": "soon"}', '{"days": 0}', f'{{"days": {longest + 1}}}', "null", "[]"):
        answer = alice.client.put("/api/v1/me/vacation", garbage, content_type="application/json")
        assert answer.status_code == 400 and answer.json()["code"] == "invalid", garbage
    Profile.objects.filter(user=alice.user).update(vacation_days_left=0)
    none_left = alice.client.put("/api/v1/me/vacation", {}, format="json")
    assert none_left.status_code == 409 and none_left.json()["code"] == "no_vacation_days"


def test_preferences_api_checks_the_time_zone(alice) -> None:
    bad = alice.client.patch("/api/v1/me/preferences", {"time_zone": "Moon/Base"}, format="json")
    assert bad.status_code == 400 and "time_zone" in bad.json()["fields"]
    sloppy = alice.client.patch("/api/v1/me/preferences", {"auto_vacation": 0}, format="json")
    assert sloppy.status_code == 400 and "auto_vacation" in sloppy.json()["fields"]
    good = alice.client.patch(
        "/api/v1/me/preferences",
        {"time_zone": "Europe/Moscow", "turn_email": "digest", "auto_vacation": False},
        format="json",
    )
    assert good.status_code == 200
    assert good.json() == {
        "time_zone": "Europe/Moscow", "auto_vacation": False,
        "email_notifications": True, "turn_email": "digest",
    }  # fmt: skip


def test_vacation_page_takes_and_ends_vacation_and_saves_the_time_zone(alice) -> None:
    from django.test import Client

    browser = Client()
    assert browser.get("/vacation/").status_code == 302  # log in first
    browser.force_login(alice.user)
    assert "14 of your 14 vacation days" in browser.get("/vacation/").content.decode()
    taken = browser.post("/vacation/", {"action": "take", "days": "2"})
    assert taken.status_code == 302
    assert Profile.objects.get(user=alice.user).vacation_started is not None
    assert browser.post("/vacation/", {"action": "end"}).status_code == 302
    assert Profile.objects.get(user=alice.user).vacation_days_left == 13
    bad = browser.post(
        "/vacation/", {"action": "preferences", "time_zone": "Nowhere", "turn_email": "each"}
    )
    assert bad.status_code == 400 and "Unknown time zone" in bad.content.decode()
    saved = browser.post(
        "/vacation/",
        {"action": "preferences", "time_zone": "Asia/Tokyo", "turn_email": "digest"},
    )
    assert saved.status_code == 302
    profile = Profile.objects.get(user=alice.user)
    assert (profile.time_zone, profile.turn_email, profile.auto_vacation) == (
        "Asia/Tokyo", "digest", False,
    )  # fmt: skip
