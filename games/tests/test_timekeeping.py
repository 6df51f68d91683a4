"""Clocks on real games: time controls, timeouts, vacation stopping game clocks, the command.

(The clocks app's own tests, without games: clocks/tests/.)

Services take `now`, so most tests drive the clocks with a fake time source;
play_turn reads the real time, so those tests move the turn's start back instead.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from accounts.models import Profile
from clocks import services
from clocks.arithmetic import DAY, HOUR
from clocks.state import clock_state, start_clock
from clocks.timecontrol import TimeControl
from core.errors import InvalidInput
from games import services as games
from games import timekeeping
from games.models import Game
from games.timekeeping import Expiry

pytestmark = pytest.mark.django_db

FRIDAY_NOON = dt.datetime(2026, 11, 27, 12, tzinfo=dt.UTC)


def back_in_time(game: Game, seconds: int) -> Game:
    """Pretend the running clock started `seconds` earlier (deadline too)."""
    Game.objects.filter(pk=game.pk).update(
        clock_since=game.clock_since - dt.timedelta(seconds=seconds),
        deadline=game.deadline - dt.timedelta(seconds=seconds),
    )
    game.refresh_from_db()
    return game


def play(game: Game, player: Any, text: str) -> Game:
    game, _ = games.play_turn(game=game, player=player.user, text=text, ply=game.ply + 1)
    return game


def no_auto_vacation(*players: Any) -> None:
    Profile.objects.filter(user__in=[p.user for p in players]).update(auto_vacation=False)


def test_bank_clock_charges_the_turn_and_adds_the_capped_increment(alice, bob) -> None:
    game = games.start_game(
        white=alice.user, black=bob.user, time_control=TimeControl.bank(10, increment_hours=36)
    )
    game = play(back_in_time(game, 3 * DAY), alice, "D2L")
    # 10 days - 3 days + 36 hours (a few seconds of test time aside).
    assert abs(game.white_clock - (7 * DAY + 36 * HOUR)) < 5
    assert game.black_clock is None  # Black's bank is still full, and now running
    assert abs((game.deadline - timezone.now()).total_seconds() - 10 * DAY) < 5
    game = play(back_in_time(game, HOUR), bob, "D6L")
    # One hour used + 36 hours back, capped at the 10-day bank.
    assert game.black_clock == 10 * DAY
    clock = clock_state(game, timezone.now())
    assert clock["running"] == "white" and not clock["paused"]
    assert abs(clock["white_remaining"] - (7 * DAY + 36 * HOUR)) < 5


def test_per_turn_clock_gives_the_full_days_again_each_turn(alice, bob) -> None:
    game = games.start_game(white=alice.user, black=bob.user, time_control=TimeControl.per_turn(2))
    game = play(back_in_time(game, DAY + 5 * HOUR), alice, "D2L")
    assert game.white_clock == 2 * DAY
    assert abs((game.deadline - timezone.now()).total_seconds() - 2 * DAY) < 5


def test_weekend_pause_moves_the_deadline_past_the_weekend_in_the_movers_zone(alice, bob) -> None:
    Profile.objects.filter(user=alice.user).update(time_zone="Asia/Tokyo")
    game = games.start_game(
        white=alice.user,
        black=bob.user,
        time_control=TimeControl.per_turn(1, weekend_pause=True),
    )
    friday_late = dt.datetime(2026, 11, 27, 23, tzinfo=dt.UTC)  # Saturday 08:00 in Tokyo
    start_clock(game=game, now=friday_late)
    assert game.clock_time_zone == "Asia/Tokyo"
    assert game.deadline == dt.datetime(2026, 11, 30, 15, tzinfo=dt.UTC)  # Tuesday 00:00 JST
    clock = clock_state(game, friday_late + dt.timedelta(hours=20))
    assert clock["paused"] and clock["white_remaining"] == DAY


def test_a_turn_after_the_deadline_is_refused_and_the_sweeper_ends_the_game(alice, bob) -> None:
    no_auto_vacation(alice, bob)
    game = games.start_game(white=alice.user, black=bob.user)
    game = play(play(game, alice, "D2L"), bob, "D6L")
    timekeeping.fast_forward(game=game)
    answer = alice.client.post(
        f"/api/v1/games/{game.pk}/turns", {"ply": 3, "turn": "D2P"}, format="json"
    )
    assert answer.status_code == 409
    assert answer.json()["code"] == "time_expired"
    report = timekeeping.sweep()
    assert report.outcomes == {game.pk: Expiry.TIMEOUT}
    game.refresh_from_db()
    assert (game.status, game.result, game.termination, game.rated) == (
        "finished", "0-1", "timeout", True,
    )  # fmt: skip
    assert game.ply == 2 and game.white_clock == 0 and game.deadline is None
    # The sweeper runs again a minute later: nothing left to do.
    assert timekeeping.sweep().outcomes == {}


def test_a_player_who_never_made_a_first_turn_is_aborted_unrated(alice, bob) -> None:
    no_auto_vacation(alice, bob)
    game = play(games.start_game(white=alice.user, black=bob.user), alice, "D2L")
    timekeeping.fast_forward(game=game)  # Black never made a turn
    assert timekeeping.expire_game(game_id=game.pk) == Expiry.ABANDONED
    game.refresh_from_db()
    assert (game.result, game.termination, game.rated) == ("1-0", "abandoned", False)


def test_a_pie_setup_never_finished_is_aborted(alice, bob) -> None:
    no_auto_vacation(alice, bob)
    game = games.start_game(white=alice.user, black=bob.user, opening="pie")
    assert game.status == "setup" and game.deadline is not None
    timekeeping.fast_forward(game=game)
    assert timekeeping.expire_game(game_id=game.pk) == Expiry.ABANDONED


def test_auto_vacation_spends_a_day_instead_of_losing_on_time(alice, bob) -> None:
    game = games.start_game(white=alice.user, black=bob.user)
    game = play(play(game, alice, "D2L"), bob, "D6L")
    now = timezone.now()
    timekeeping.fast_forward(game=game, now=now)
    assert timekeeping.expire_game(game_id=game.pk, now=now) == Expiry.AUTO_VACATION
    game.refresh_from_db()
    assert game.status == "active" and game.deadline is None  # stopped, not lost
    profile = Profile.objects.get(user=alice.user)
    assert profile.vacation_until == now + dt.timedelta(days=1)
    # The day is over: the sweeper ends the vacation and charges it; the clock restarts
    # with no time left, so a player still away spends the next day too…
    later = now + dt.timedelta(days=1, minutes=1)
    report = timekeeping.sweep(now=later)
    assert report.vacations_ended == 1
    assert report.outcomes == {game.pk: Expiry.AUTO_VACATION}
    profile.refresh_from_db()
    assert profile.vacation_days_left == 13 and profile.vacation_started == later
    assert alice.user.notifications.filter(kind="auto_vacation").count() == 2
    # …until no days are left (here: automatic vacation turned off): lost on time.
    profile.auto_vacation = False
    profile.save()
    report = timekeeping.sweep(now=later + dt.timedelta(days=1, minutes=1))
    assert report.outcomes == {game.pk: Expiry.TIMEOUT}
    profile.refresh_from_db()
    assert profile.vacation_days_left == 12
    game.refresh_from_db()
    assert (game.termination, game.result) == ("timeout", "0-1")


def test_vacation_stops_all_my_clocks_and_charges_each_started_day(alice, bob, stranger) -> None:
    now = timezone.now()
    my_turn = games.start_game(
        white=alice.user, black=bob.user, time_control=TimeControl.per_turn(5)
    )
    my_turn = back_in_time(my_turn, DAY)  # one of my five days used already
    their_turn = play(games.start_game(white=bob.user, black=alice.user), bob, "D2L")
    tournament = games.start_game(white=alice.user, black=stranger.user, vacation_allowed=False)
    waiting = games.start_game(white=stranger.user, black=alice.user)

    vacation = services.take_vacation(user=alice.user, days=5, now=now)
    assert vacation.on_vacation and vacation.until == now + dt.timedelta(days=5)
    for game in (my_turn, their_turn):
        game.refresh_from_db()
        assert game.deadline is None and clock_state(game, now)["paused"]
    my_turn.refresh_from_db()
    assert abs(my_turn.white_clock - 4 * DAY) < 5  # the time left was kept
    tournament.refresh_from_db()
    assert tournament.deadline is not None  # a tournament forbade vacation here
    # My opponent plays while I am away: my clock does not start.
    waiting = play(waiting, stranger, "D2L")
    assert waiting.deadline is None and waiting.clock_since is None

    back = now + dt.timedelta(days=2, hours=12)
    vacation = services.end_vacation(user=alice.user, now=back)
    assert not vacation.on_vacation and vacation.days_left == 14 - 3  # 2.5 days = 3 started
    my_turn.refresh_from_db()
    assert my_turn.clock_since == back
    assert abs((my_turn.deadline - back).total_seconds() - 4 * DAY) < 5
    waiting.refresh_from_db()
    assert waiting.deadline == back + dt.timedelta(days=3)
    # Coming back twice is harmless.
    assert services.end_vacation(user=alice.user, now=back).days_left == 11


def test_challenges_accept_each_time_control_and_games_show_the_clock(alice, bob) -> None:
    controls = [
        ({"days_per_turn": 5}, {"kind": "per_turn", "days": 5, "increment_hours": 0.0}),
        ({"clock": {"kind": "per_turn", "days": 14}}, {"kind": "per_turn", "days": 14}),
        (
            {"clock": {"kind": "bank", "days": 10, "increment_hours": 36, "weekend_pause": True}},
            {"kind": "bank", "days": 10, "increment_hours": 36.0, "weekend_pause": True},
        ),
    ]
    for request, expected in controls:
        made = alice.client.post(
            "/api/v1/challenges", {"opponent": "bob", "color": "white", **request}, format="json"
        )
        assert made.status_code == 201, made.json()
        accepted = bob.client.post(f"/api/v1/challenges/{made.json()['id']}/accept")
        game = accepted.json()["game"]
        clock = alice.client.get(f"/api/v1/games/{game['id']}").json()["clock"]
        assert expected.items() <= clock.items(), clock
        assert clock["running"] == "white" and clock["paused"] is False
        assert clock["black_remaining"] == clock["days"] * DAY
        assert clock["deadline"] == game["deadline"]
        assert 0 <= clock["days"] * DAY - clock["white_remaining"] < 5


def test_bad_time_controls_are_refused_with_field_errors(alice) -> None:
    for clock, field in [
        ({"kind": "per_turn", "days": 4}, "days"),
        ({"kind": "bank", "days": 10, "increment_hours": -1}, "increment_hours"),
        ({"kind": "blitz", "days": 3}, "kind"),
        ({"kind": "bank"}, "days"),
        ({"kind": "per_turn", "days": 3, "increment_hours": 5}, "increment_hours"),
    ]:
        answer = alice.client.post("/api/v1/challenges", {"clock": clock}, format="json")
        assert answer.status_code == 400, (clock, answer.json())
        assert answer.json()["code"] == "invalid"
        assert field in str(answer.json()["fields"]), answer.json()
    with pytest.raises(InvalidInput):
        games.create_challenge(creator=alice.user, time_control=TimeControl.bank(40))


def test_expire_clock_command_ends_a_game_for_demos(alice, bob, capsys) -> None:
    game = games.start_game(white=alice.user, black=bob.user)
    game = play(play(game, alice, "D2L"), bob, "D6L")
    call_command("expire_clock", str(game.pk), "--no-auto-vacation")
    game.refresh_from_db()
    assert (game.status, game.termination, game.result) == ("finished", "timeout", "0-1")
    assert "over: 0-1 (timeout)" in capsys.readouterr().out
    with pytest.raises(CommandError, match="is over"):
        call_command("expire_clock", str(game.pk))
    with pytest.raises(CommandError, match="no game"):
        call_command("expire_clock", "999999")


def test_time_control_form_for_the_lobby_gives_the_challenges_time_control(alice) -> None:
    from clocks.forms import TimeControlForm

    form = TimeControlForm(
        {
            "clock_kind": "bank",
            "days_per_turn": "10",
            "increment_hours": "36",
            "weekend_pause": "on",
        }
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["time_control"] == TimeControl.bank(
        10, increment_hours=36, weekend_pause=True
    )
    challenge = games.create_challenge(
        creator=alice.user, time_control=form.cleaned_data["time_control"]
    )
    assert (challenge.clock_kind, challenge.days_per_turn, challenge.clock_increment) == (
        "bank", 10, 36 * HOUR,
    )  # fmt: skip
    assert challenge.weekend_pause
    assert challenge.time_control == form.cleaned_data["time_control"]
    wrong = TimeControlForm({"clock_kind": "per_turn", "days_per_turn": "4"})
    assert not wrong.is_valid() and "days_per_turn" in wrong.errors
