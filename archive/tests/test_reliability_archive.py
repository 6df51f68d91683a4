"""verify_games finds every inconsistency; export_archive → empty DB → import_archive → same bytes."""

from __future__ import annotations

import datetime as dt
import io
import json
import random
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone

from accounts.models import Profile
from archive.archive_file import ArchiveError, import_archive
from archive.tasks import verify_all_games, verify_recent_games
from games import services
from games.models import Game, Turn
from games.tests.helpers import pick_turn
from games.tests.test_reliability_queries import long_game_turns, play_without_finishing

pytestmark = pytest.mark.django_db


def _play_to_the_end(game: Game, seed: int) -> Game:
    rng = random.Random(seed)
    players = {"white": game.white, "black": game.black}
    while game.status == Game.Status.ACTIVE:
        text = pick_turn(game.position, rng)
        game, _ = services.play_turn(
            game=game, player=players[game.to_move], text=text, ply=game.ply + 1
        )
    return game


@pytest.fixture
def archive_world(alice, bob, stranger) -> list[Game]:
    """Games in every state, players with profiles, and a tournament if the app exists."""
    Profile.objects.filter(user=alice.user).update(display_name="Alice « A »", rating=1612.25)
    long = play_without_finishing(services.start_game(white=alice.user, black=bob.user), 40)
    decided = _play_to_the_end(services.start_game(white=bob.user, black=stranger.user), seed=3)
    resigned = services.start_game(white=stranger.user, black=alice.user, rated=False)
    services.play_turn(game=resigned, player=stranger.user, text="D2L", ply=1)
    resigned = services.resign(game=resigned, player=alice.user)
    pie = services.start_game(white=alice.user, black=stranger.user, opening=Game.Opening.PIE)
    custom = services.start_game(
        white=bob.user, black=alice.user, start_position="C3W11,E5B11 w 0-0"
    )
    games = [long, decided, resigned, pie, custom]
    try:
        from tournaments import services as tournament_services
    except ImportError:
        return games
    organiser = get_user_model().objects.create_user("organiser", is_staff=True)
    tournament = tournament_services.create_tournament(
        organiser=organiser, name="Archive Cup", format="roundrobin"
    )
    for player in (alice, bob, stranger):
        tournament_services.join(tournament=tournament, user=player.user)
    tournament_services.start_tournament(tournament=tournament, by=organiser)
    return games


def _export(tmp_path: Path, name: str) -> bytes:
    path = tmp_path / name
    call_command("export_archive", str(path), stderr=io.StringIO())
    return path.read_bytes()


def _delete_games_and_tournaments() -> None:
    try:
        from tournaments.models import Tournament
    except ImportError:
        pass
    else:
        Tournament.objects.all().delete()
    Game.objects.all().delete()


def _empty_the_database() -> None:
    # What a fresh database has: no rows at all (flush also resets PostgreSQL's sequences).
    call_command("flush", "--noinput", verbosity=0)


@pytest.mark.django_db(transaction=True)
def test_export_flush_import_export_is_byte_identical(archive_world, tmp_path) -> None:
    first = _export(tmp_path, "first.jsonl")
    records = [json.loads(line) for line in first.decode().splitlines()]
    models = {record.get("model") for record in records[1:]}
    assert {"auth.user", "accounts.profile", "games.game", "games.turn"} <= models
    assert sum(record.get("model") == "games.turn" for record in records) == Turn.objects.count()
    assert not any("password" in record.get("fields", {}) for record in records)
    game_ids = sorted(Game.objects.values_list("pk", flat=True))

    _empty_the_database()
    assert not Game.objects.exists() and not get_user_model().objects.exists()
    out = io.StringIO()
    call_command("import_archive", str(tmp_path / "first.jsonl"), stdout=out)
    assert "games.game" in out.getvalue()

    assert _export(tmp_path, "second.jsonl") == first
    assert sorted(Game.objects.values_list("pk", flat=True)) == game_ids
    call_command("verify_games", stdout=io.StringIO())  # every imported game replays
    # The sequences moved past the imported ids: a new game gets a fresh id.
    users = get_user_model().objects.order_by("pk")
    assert services.start_game(white=users[0], black=users[1]).pk > max(game_ids)
    if "tournaments.pairing" in models:
        from tournaments.models import Pairing

        assert Pairing.objects.filter(game__isnull=False).exists()


def test_import_refuses_a_database_with_games_and_broken_files(archive_world, tmp_path) -> None:
    first = _export(tmp_path, "first.jsonl").decode()
    with pytest.raises(ArchiveError, match="already has games.game rows"):
        import_archive(io.StringIO(first))
    _delete_games_and_tournaments()
    header = first.splitlines(keepends=True)[0]
    for broken, message in [
        ("not json\n", "line 1: not JSON"),
        ('{"format": "other"}\n', "not an Adaptoid archive"),
        (header + '{"model": "games.secret", "fields": {}}\n', "unknown model"),
        (header + '{"model": "games.game", "fields": {"id": 1}}\n', "fields"),
        (header + "[1, 2]\n", "expected"),
    ]:
        with pytest.raises(ArchiveError, match=message):
            import_archive(io.StringIO(broken))
    # Values the database would refuse (found by the fuzzing: a 500 on PostgreSQL).
    for good, bad in [
        ('"result":"0-1"', '"result":"0-1-0-1-0-1"'),  # longer than the column
        ('"status":"finished"', '"status":"won"'),  # not a choice
        ('"ply":2', '"ply":"two"'),  # not a number
    ]:
        assert good in first, good
        with pytest.raises(ArchiveError, match="line"):
            import_archive(io.StringIO(first.replace(good, bad, 1)))
    # A turn that does not replay: the whole import is refused and nothing is stored.
    tampered = first.replace('"text":"D2L"', '"text":"D2-D9"', 1)
    assert tampered != first
    with pytest.raises(ArchiveError, match="do not replay"):
        import_archive(io.StringIO(tampered))
    assert not Game.objects.exists() and not Turn.objects.exists()


def test_verify_games_reports_every_kind_of_mismatch(alice, bob) -> None:
    sound = play_without_finishing(services.start_game(white=alice.user, black=bob.user), 6)
    stale_cache = play_without_finishing(services.start_game(white=alice.user, black=bob.user), 4)
    Game.objects.filter(pk=stale_cache.pk).update(position=sound.position)
    gap = play_without_finishing(services.start_game(white=alice.user, black=bob.user), 4)
    Turn.objects.filter(game=gap, ply=2).delete()
    illegal = play_without_finishing(services.start_game(white=alice.user, black=bob.user), 2)
    Turn.objects.filter(game=illegal, ply=2).update(text="D2-D9")
    short = play_without_finishing(services.start_game(white=alice.user, black=bob.user), 3)
    Game.objects.filter(pk=short.pk).update(ply=7)

    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="5 games checked, 4 mismatches") as caught:
        call_command("verify_games", stdout=out, stderr=err)
    assert caught.value.returncode == 1
    report = err.getvalue()
    assert f"game {stale_cache.pk}: cached position" in report
    assert f"game {gap.pk}: turn numbered 3 where 2 was expected" in report
    assert f"game {illegal.pk}: turn 2 'D2-D9' does not replay" in report
    assert f"game {short.pk}: 3 turns stored but the game says ply 7" in report
    assert f"game {sound.pk}" not in report

    summary = verify_all_games.run()  # the periodic task: same check, same findings
    assert summary["checked"] == 5 and len(summary["mismatches"]) == 4
    ok = io.StringIO()
    call_command("verify_games", str(sound.pk), stdout=ok)
    assert "1 games checked, 0 mismatches" in ok.getvalue()


def test_a_running_game_the_engine_says_is_over_is_a_mismatch(alice, bob) -> None:
    game = _play_to_the_end(services.start_game(white=alice.user, black=bob.user), seed=5)
    assert game.status == Game.Status.FINISHED
    call_command("verify_games", stdout=io.StringIO())
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ACTIVE, result="*")
    with pytest.raises(CommandError):
        call_command("verify_games", stdout=io.StringIO(), stderr=io.StringIO())


def test_the_long_game_line_is_deterministic() -> None:
    assert long_game_turns(10, seed=1) == long_game_turns(10, seed=1)
    assert connection.vendor in {"postgresql", "sqlite"}


def test_the_ten_minute_sweep_checks_the_games_finished_lately(alice, bob) -> None:
    recent = _play_to_the_end(services.start_game(white=alice.user, black=bob.user), seed=5)
    old = _play_to_the_end(services.start_game(white=alice.user, black=bob.user), seed=6)
    running = play_without_finishing(services.start_game(white=alice.user, black=bob.user), 2)
    assert recent.status == old.status == Game.Status.FINISHED
    Game.objects.filter(pk=old.pk).update(finished=timezone.now() - dt.timedelta(hours=2))
    assert verify_recent_games.run() == {"checked": 1, "mismatches": []}
    for game in (recent, old, running):  # the same damage to all three
        Turn.objects.filter(game=game, ply=1).delete()
    summary = verify_recent_games.run()
    assert summary["checked"] == 1
    assert [m.split(":")[0] for m in summary["mismatches"]] == [f"game {recent.pk}"]
    assert verify_recent_games.run(minutes=180)["checked"] == 2  # the old one too


@pytest.mark.django_db(transaction=True)
def test_an_archive_written_before_the_redesign_still_imports(archive_world, tmp_path) -> None:
    # Version 1 (main before the redesign): profiles under games.profile, tournaments
    # without their whole time control.  Read as version 2, with the defaults.
    current = _export(tmp_path, "current.jsonl").decode().splitlines()
    old = [json.dumps({"format": "adaptoid-archive", "version": 1})]
    for line in current[1:]:
        record = json.loads(line)
        if record["model"] == "accounts.profile":
            record["model"] = "games.profile"
        if record["model"] == "tournaments.tournament":
            for name in ("clock_kind", "clock_increment", "weekend_pause"):
                record["fields"].pop(name)
        old.append(json.dumps(record))
    _empty_the_database()
    counts = import_archive(io.StringIO("\n".join(old) + "\n"))
    assert counts["accounts.profile"] == len([r for r in current if '"accounts.profile"' in r])
    assert _export(tmp_path, "again.jsonl").decode().splitlines()[1:] == current[1:]
