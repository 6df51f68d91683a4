"""Tournament pages: a new user joins on the website, reads standings, crosstable, rounds."""

from __future__ import annotations

import pytest
from django.http import HttpRequest
from django.test import Client

from tournaments import services
from tournaments.models import Pairing, Participant, Round, Tournament

from .helpers import finish, jobs_run_here, make_user, open_games

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery-staple"


def logged_in(user) -> Client:
    client = Client()
    # A request for the log-in lockout (django-axes), as a log-in page would give it.
    assert client.login(request=HttpRequest(), username=user.username, password=PASSWORD)
    return client


def test_organiser_creates_a_tournament_players_join_and_it_runs() -> None:
    organiser = make_user("orga", organiser=True)
    page = logged_in(organiser).get("/tournaments/new/")
    assert page.status_code == 200
    answer = logged_in(organiser).post(
        "/tournaments/new/",
        {
            "name": "Web Cup",
            "format": "roundrobin",
            "opening": "standard",
            "days_per_turn": 2,
            "rated": "on",
            "bye_points": 2,
            "tiebreaks": "sb, win",
            "all_at_once": "on",
        },
    )
    tournament = Tournament.objects.get(name="Web Cup")
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{tournament.pk}/"
    assert tournament.tiebreak_list == ["SB", "WIN"] and tournament.all_at_once
    players = [make_user(name) for name in ("ann", "ben", "cat")]
    for user in players:
        joined = logged_in(user).post(f"/tournaments/{tournament.pk}/join/", follow=True)
        assert "Joined." in joined.content.decode()
    refused = logged_in(players[0]).post(f"/tournaments/{tournament.pk}/start/", follow=True)
    assert "Only the organiser" in refused.content.decode()
    with jobs_run_here():  # the page queues the start as a job
        started = logged_in(organiser).post(f"/tournaments/{tournament.pk}/start/", follow=True)
    assert "The tournament is starting" in started.content.decode()
    for game in open_games(tournament):
        finish(game, "1-0")
    services.advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == "finished"

    detail = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Final standings" in detail and "Sonneborn-Berger" in detail
    cross = Client().get(f"/tournaments/{tournament.pk}/crosstable/").content.decode()
    # Per-round table and the round-robin grid: header + 3 players each.
    assert cross.count("<tr>") == 8 and cross.count(">×<") == 3
    round_one = Client().get(f"/tournaments/{tournament.pk}/rounds/1/").content.decode()
    assert "1–0" in round_one and "/games/" in round_one
    listing = Client().get("/tournaments/").content.decode()
    assert "Web Cup" in listing
    agn = Client().get(f"/tournaments/{tournament.pk}/games.agn")
    assert agn.content.decode().count("[Event ") == 3


def test_bad_form_values_come_back_as_field_errors() -> None:
    organiser = make_user("orga", organiser=True)
    answer = logged_in(organiser).post(
        "/tournaments/new/",
        {"name": "X", "format": "swiss", "opening": "standard", "days_per_turn": 3,
         "bye_points": 2, "tiebreaks": "BH, nope"},
    )  # fmt: skip
    assert answer.status_code == 200
    text = answer.content.decode()
    assert "A Swiss needs 1 to" in text and "at most once" in text
    assert not Tournament.objects.exists()


def test_players_without_permission_get_403_and_anonymous_a_login() -> None:
    player = make_user("pat")
    assert logged_in(player).get("/tournaments/new/").status_code == 403
    assert Client().get("/tournaments/new/").status_code == 302
    assert Client().post("/tournaments/1/join/").status_code == 302


def test_unknown_pages_are_404() -> None:
    organiser = make_user("orga", organiser=True)
    tournament = services.create_tournament(
        organiser=organiser, name="Empty", format="swiss", rounds=2
    )
    assert Client().get("/tournaments/999/").status_code == 404
    assert Client().get(f"/tournaments/{tournament.pk}/rounds/1/").status_code == 404
    assert logged_in(organiser).post(f"/tournaments/{tournament.pk}/explode/").status_code == 404
    assert Client().get(f"/tournaments/{tournament.pk}/tournament.trf").status_code == 200


def test_admin_lists_and_opens_every_tournament_model() -> None:
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)
    organiser = make_user("orga", organiser=True)
    tournament = services.create_tournament(
        organiser=organiser, name="Admin Cup", format="swiss", rounds=2
    )
    for name in ("ann", "ben", "cat"):
        services.join(tournament=tournament, user=make_user(name))
    ann = tournament.participants.get(user__username="ann")
    services.request_bye(tournament=tournament, user=ann.user, round_number=1)
    client = logged_in(admin)
    with jobs_run_here():  # the action queues the start job
        started = client.post(
            "/admin/tournaments/tournament/",
            {"action": "start_now", "_selected_action": [tournament.pk]},
            follow=True,
        )
    assert "Admin Cup is starting." in started.content.decode()
    for model in (Tournament, Participant, Round, Pairing):
        name = model._meta.model_name
        listing = client.get(f"/admin/tournaments/{name}/")
        assert listing.status_code == 200, name
        first = tournament.pk if model is Tournament else model.objects.first().pk
        assert client.get(f"/admin/tournaments/{name}/{first}/change/").status_code == 200
    # The participant's page lists the half-point byes asked for.
    page = client.get(f"/admin/tournaments/participant/{ann.pk}/change/").content.decode()
    assert "half-point bye requests" in page.lower()
