"""Archive filters (page and API), streamed exports that read back, .agn import."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from archive import imports
from archive.models import ImportJob
from engine import read_games
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


def finished(white, black, turns=(), resign_by=None):
    game = services.start_game(white=white.user, black=black.user)
    players = [white, black]
    for ply, text in enumerate(turns, 1):
        services.play_turn(game=game, player=players[(ply - 1) % 2].user, text=text, ply=ply)
    services.resign(game=game, player=(resign_by or black).user)
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def three_games(alice, bob, stranger):
    return [
        finished(alice, bob, ["D2L", "D6L"]),  # alice (white) wins
        finished(bob, alice, ["D2P"], resign_by=bob),  # alice (black) wins
        finished(stranger, bob, []),  # mallory wins
    ]


def body(answer) -> bytes:
    return b"".join(answer.streaming_content)


def test_api_archive_filters_like_the_page(client, three_games) -> None:
    answer = client.get("/api/v1/archive", {"format": "ndjson", "player": "alice", "result": "win"})
    assert answer.status_code == 200 and answer["Content-Type"] == "application/x-ndjson"
    games = [json.loads(line) for line in body(answer).decode().splitlines()]
    assert sorted(g["id"] for g in games) == sorted(g.pk for g in three_games[:2])
    answer = client.get(
        "/api/v1/archive", {"format": "ndjson", "player": "alice", "color": "black"}
    )
    assert [json.loads(x)["id"] for x in body(answer).decode().splitlines()] == [three_games[1].pk]
    page = client.get("/archive/", {"player": "alice", "color": "black"}).content.decode()
    assert f"/games/{three_games[1].pk}/" in page and f"/games/{three_games[0].pk}/" not in page
    assert "format=zip" in page and "player=alice" in page


def test_api_archive_refuses_bad_filters_in_json(client, three_games) -> None:
    answer = client.get("/api/v1/archive", {"player": "nobody"})
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid" and "player" in answer.json()["fields"]
    assert client.get("/api/v1/archive", {"since": "yesterday"}).status_code == 400


def test_agn_export_reads_back_through_the_engine(client, three_games) -> None:
    text = body(client.get("/api/v1/archive", {"format": "agn"})).decode()
    records = list(read_games(text))
    assert len(records) == 3 and not any(r.errors for r in records)
    by_id = {int(r.headers["GameId"]): r for r in records}
    for game in three_games:
        assert str(by_id[game.pk].replay()) == game.position
        assert by_id[game.pk].result == game.result


def test_zip_export_holds_the_same_agn(client, three_games) -> None:
    agn = body(client.get("/api/v1/archive", {"format": "agn"}))
    data = body(client.get("/api/v1/archive", {"format": "zip"}))
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.namelist() == ["adaptoid-archive.agn"]
        assert archive.read("adaptoid-archive.agn") == agn


def test_export_query_count_does_not_grow_with_games(client, alice, bob) -> None:
    for _ in range(5):
        finished(alice, bob, ["D2L"])
    with CaptureQueriesContext(connection) as few:
        body(client.get("/api/v1/archive", {"format": "ndjson"}))
    for _ in range(10):
        finished(alice, bob, ["D2L", "D6P"])
    with CaptureQueriesContext(connection) as more:
        body(client.get("/api/v1/archive", {"format": "ndjson"}))
    assert len(more) == len(few)


def test_archive_page_query_count_is_constant(client, alice, bob) -> None:
    for _ in range(3):
        finished(alice, bob)
    with CaptureQueriesContext(connection) as few:
        client.get("/archive/")
    for _ in range(12):
        finished(alice, bob)
    with CaptureQueriesContext(connection) as more:
        client.get("/archive/")
    assert len(more) == len(few)


GOOD = """[Event "Casual"]
[White "Ann"]
[Black "Ben"]
[Result "0-1"]

1. D2L D6L 0-1
"""
BAD_TURN = """[White "Ann"]
[Black "Ben"]
[Result "1-0"]

1. D2L D6-D3 1-0
"""
UNFINISHED = """[White "Ann"]
[Black "Ben"]
[Result "*"]

1. D2L *
"""


def test_import_stores_valid_games_and_reports_each_invalid_one(client, alice) -> None:
    client.force_login(alice.user)
    upload = io.BytesIO((GOOD + "\n" + BAD_TURN + "\n" + UNFINISHED).encode())
    upload.name = "games.agn"
    before = Game.objects.count()
    answer = client.post("/import/", {"file": upload})
    # A job: the page of its progress, reloading itself until a worker has run it.
    assert answer.status_code == 302 and answer["Location"].startswith("/import/")
    waiting = client.get(answer["Location"]).content.decode()
    assert 'http-equiv="refresh"' in waiting and 'data-status="queued"' in waiting
    assert Game.objects.count() == before
    imports.run_job(job_id=ImportJob.objects.get().pk)  # what the worker does
    page = client.get(answer["Location"]).content.decode()
    assert 'http-equiv="refresh"' not in page
    assert "1 stored, 0 already there, 2 rejected" in page
    assert Game.objects.count() == before + 1
    game = Game.objects.get(imported=True)
    assert (game.result, game.rated, game.status, game.ply) == ("0-1", False, "finished", 2)
    assert list(game.turns.values_list("text", flat=True)) == ["D2L", "D6L"]
    assert game.white.profile.display_name == "Ann" and not game.white.is_active
    rows = page.split('id="import-report"')[1]
    assert "<td>2</td><td>2</td><td>illegal turn" in rows  # game 2, turn 2: the illegal move
    assert "<td>3</td>" in rows and "not finished" in rows
    # The imported game is in the archive and exports again.
    text = body(client.get("/api/v1/archive", {"format": "agn", "imported": "true"})).decode()
    [record] = list(read_games(text))
    assert record.turns == ["D2L", "D6L"] and record.headers["White"] == "Ann@imported"


def test_tournament_filter_finds_the_tournaments_games(client, alice, bob) -> None:
    from tournaments.models import Pairing, Participant, Round, Tournament

    in_tournament = finished(alice, bob, ["D2L"])
    casual = finished(alice, bob, ["D2P"])
    cup = Tournament.objects.create(name="Winter cup", organiser=alice.user, format="roundrobin")
    white = Participant.objects.create(tournament=cup, user=alice.user)
    black = Participant.objects.create(tournament=cup, user=bob.user)
    first = Round.objects.create(tournament=cup, number=1)
    Pairing.objects.create(round=first, board=1, white=white, black=black, game=in_tournament)
    answer = client.get("/api/v1/archive", {"format": "ndjson", "tournament": cup.pk})
    assert [json.loads(x)["id"] for x in body(answer).decode().splitlines()] == [in_tournament.pk]
    page = client.get("/archive/", {"tournament": cup.pk}).content.decode()
    assert "Winter cup" in page and f"/games/{casual.pk}/" not in page


def test_extreme_dates_are_no_server_error(client, three_games) -> None:
    answer = client.get("/api/v1/archive", {"since": "0001-01-01", "until": "9999-12-31"})
    assert answer.status_code == 200 and len(list(read_games(body(answer).decode()))) == 3
    assert client.get("/archive/", {"until": "9999-12-31"}).status_code == 200
