"""One game, the same bytes in every .agn download.

The game's own download (page and API, text and JSON), the archive export (.agn and
inside the .zip) and the tournament's download (page and API) all build the record
with archive.records and write it with engine.write_game.
"""

from __future__ import annotations

import io
import zipfile

import pytest
from django.contrib.auth import get_user_model

from archive.imports import import_games
from engine import read_games
from games import services
from games.models import Game
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

CUSTOM = "C3W10,E5B01 b 0-0 A1-4,B1-5,C1-6,D1-7,E2-7"


def body(answer) -> bytes:
    return b"".join(answer.streaming_content)


def _zip_member(answer) -> bytes:
    with zipfile.ZipFile(io.BytesIO(body(answer))) as archive:
        return archive.read("adaptoid-archive.agn")


def _game_downloads(client, game_id: int) -> dict[str, bytes]:
    return {
        "game page": client.get(f"/games/{game_id}/record.agn").content,
        "game API": client.get(f"/api/v1/games/{game_id}/record").content,
        "game API, JSON": client.get(f"/api/v1/games/{game_id}/record", {"format": "json"})
        .json()["text"]
        .encode(),
    }


@pytest.fixture
def cup_game(alice, bob) -> tuple[int, Game]:
    """The one game of a two-player round robin, played a little and resigned."""
    organiser = get_user_model().objects.create_user("organiser", is_staff=True)
    cup = tournament_services.create_tournament(
        organiser=organiser, name='Cup "Ω"', format="roundrobin"
    )
    for player in (alice, bob):
        tournament_services.join(tournament=cup, user=player.user)
    tournament_services.start_tournament(tournament=cup, by=organiser)
    game = Game.objects.get(tournament_pairing__round__tournament=cup)
    for ply, text in enumerate(["D2L", "D6L", "D2-D3,D3P"], 1):
        mover = game.white if ply % 2 else game.black
        game, _ = services.play_turn(game=game, player=mover, text=text, ply=ply)
    return cup.pk, services.resign(game=game, player=game.black)


def test_a_tournament_game_is_the_same_bytes_in_all_seven_downloads(client, cup_game) -> None:
    cup, game = cup_game
    downloads = _game_downloads(client, game.pk) | {
        "archive .agn": body(client.get("/api/v1/archive", {"format": "agn", "tournament": cup})),
        "archive .zip": _zip_member(
            client.get("/api/v1/archive", {"format": "zip", "tournament": cup})
        ),
        "tournament page": client.get(f"/tournaments/{cup}/games.agn").content,
        "tournament API": client.get(f"/api/v1/tournaments/{cup}/games").content,
    }
    assert len(set(downloads.values())) == 1, downloads
    text = downloads["game page"].decode()
    assert text.splitlines()[:9] == [
        '[Event "Cup \\"Ω\\""]',
        '[Site "Adaptoid platform"]',
        f'[Date "{game.created:%Y.%m.%d}"]',
        '[Round "1.1"]',
        f'[White "{game.white.username}"]',
        f'[Black "{game.black.username}"]',
        '[Result "1-0"]',
        '[Termination "resignation"]',  # no Opening tag: the standard start
        f'[GameId "{game.pk}"]',
    ]
    [record] = read_games(text)
    assert record.errors == [] and record.turns == ["D2L", "D6L", "D2-D3,D3P"]


def _pie_game(alice, bob) -> Game:
    game = services.start_game(white=alice.user, black=bob.user, opening=Game.Opening.PIE)
    services.setup_pie(game=game, player=alice.user, white="C3", black="E5")
    return services.choose_color(game=Game.objects.get(pk=game.pk), player=bob.user, color="black")


@pytest.mark.parametrize(
    ("kind", "tags"),
    [
        ("pie", ['[Opening "pie"]', '[Position "C3W00,E5B00 w 0-0"]']),
        (
            "custom",
            [
                '[Opening "position"]',  # the format's word for a custom start
                '[Board "A1-4,B1-5,C1-6,D1-7,E2-7"]',
                f'[Position "{CUSTOM}"]',
            ],
        ),
    ],
)
def test_other_starts_get_the_formats_tags_in_every_download(
    client, alice, bob, kind: str, tags: list[str]
) -> None:
    if kind == "pie":
        game = _pie_game(alice, bob)
    else:
        game = services.start_game(white=alice.user, black=bob.user, start_position=CUSTOM)
        game, _ = services.play_turn(game=game, player=bob.user, text="E5P", ply=1)
    services.resign(game=Game.objects.get(pk=game.pk), player=alice.user)
    downloads = _game_downloads(client, game.pk) | {
        "archive .agn": body(client.get("/api/v1/archive", {"format": "agn"})),
    }
    assert len(set(downloads.values())) == 1, downloads
    text = downloads["archive .agn"].decode()
    assert text.splitlines()[7 : 7 + len(tags)] == tags
    # The import reads the tags back to the same kind of game.
    [stored] = import_games(user=alice.user, text=text).stored
    assert (stored.opening, stored.start_position) == (game.opening, game.start_position)


def test_a_pie_game_ended_before_its_setup_has_no_record(client, alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user, opening=Game.Opening.PIE)
    services.resign(game=game, player=alice.user)
    assert client.get(f"/api/v1/games/{game.pk}/record").json()["code"] == "wrong_phase"
    assert body(client.get("/api/v1/archive", {"format": "agn"})) == b""
    listed = body(client.get("/api/v1/archive", {"format": "ndjson"})).decode()
    assert f'"id": {game.pk}' in listed  # still listed where no record is needed
