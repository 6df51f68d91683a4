"""The opening explorer against a brute-force count over the stored games."""

from __future__ import annotations

import datetime
import random
from collections import Counter, defaultdict
from typing import Any

import pytest
from django.utils import timezone

from analysis import explorer
from analysis.models import ExplorerEntry, ExplorerPeriod, ExplorerPosition
from archive import imports as archive_imports
from engine import Position
from games import services as game_services
from games.models import Game

pytestmark = pytest.mark.django_db

URL = "/api/v1/explorer"


def _play(white: Any, black: Any, texts: list[str], *, rated: bool = True) -> Game:
    game = game_services.start_game(white=white, black=black, rated=rated)
    players = {"w": white, "b": black}
    position = Position.standard()
    for ply, text in enumerate(texts, 1):
        mover = players[str(position).split(" ")[1]]
        game_services.play_turn(game=game, player=mover, text=text, ply=ply)
        position.push_text(text)
    game = Game.objects.get(pk=game.pk)
    if game.status != Game.Status.FINISHED:
        game_services.resign(game=game, player=players[str(position).split(" ")[1]])
    return Game.objects.get(pk=game.pk)


def _random_game(rng: random.Random, white: Any, black: Any) -> Game:
    position = Position.standard()
    texts: list[str] = []
    for _ in range(rng.randint(0, 9)):
        if position.is_game_over():
            break
        texts.append(str(position.random_turn(rng)))
        position.push_text(texts[-1])
    return _play(white, black, texts, rated=rng.random() < 0.6)


def _brute_force(games: list[Game], position_text: str) -> dict[str, Any]:
    """Replays every stored finished game: which reached the position, what they played."""
    reached = 0
    turns: dict[str, set[int]] = defaultdict(set)
    results: dict[int, str] = {}
    for game in games:
        position = Position.from_string(game.start_position)
        texts = list(game.turns.order_by("ply").values_list("text", flat=True))
        hit = False
        for text in [*texts, None]:
            if str(position) == position_text:
                hit = True
                if text is not None:
                    turns[text].add(game.pk)
            if text is not None:
                position.push_text(text)
        if hit:
            reached += 1
            results[game.pk] = game.result
    rows = []
    for text, ids in turns.items():
        count = Counter(results[pk] for pk in ids)
        rows.append(
            {
                "turn": text,
                "games": len(ids),
                "white": count["1-0"],
                "black": count["0-1"],
                "draws": count["1/2-1/2"],
            }
        )
    rows.sort(key=lambda row: (-row["games"], row["turn"]))
    return {"position": position_text, "games": reached, "turns": rows}


@pytest.fixture
def archive(request, make_player, monkeypatch) -> dict[str, Any]:
    """40 seeded random finished games between three players, one ongoing game, and
    one imported game, finished on days spread over five months; all indexed (as the
    finish and import jobs do).  Parametrised "periods" (indirect): the positions are
    counted by period from 2 games of a kind, and the games indexed 6 at a time, so
    that positions cross that mark in a batch and later batches add to their periods."""
    mode = getattr(request, "param", "entries")
    if mode == "periods":
        monkeypatch.setattr(explorer, "DATED_FROM", 2)
    rng = random.Random(17)
    people = [make_player(name).user for name in ("ann", "ben", "cat")]
    games = []
    for _ in range(40):
        white, black = rng.sample(people, 2)
        games.append(_random_game(rng, white, black))
    # Two turn orders to one position (a transposition), and a draw agreed.
    games.append(_play(people[0], people[1], ["C1", "C5", "C2", "B4"]))
    games.append(_play(people[1], people[2], ["C2", "C5", "C1", "B4", "D2L"]))
    drawn = game_services.start_game(white=people[2], black=people[0])
    game_services.adjudicate(game=drawn, result="1/2-1/2", termination="agreement")
    games.append(Game.objects.get(pk=drawn.pk))
    game_services.start_game(white=people[0], black=people[1])  # ongoing: never counted
    report = archive_imports.import_games(user=people[0], text="1. C1 C5 2. C2 B4 0-1\n")
    assert len(report.stored) == 1
    imported = report.stored[0]
    for game in Game.objects.filter(status=Game.Status.FINISHED).order_by("pk"):
        ago = datetime.timedelta(days=rng.randrange(150), hours=rng.randrange(24))
        Game.objects.filter(pk=game.pk).update(finished=timezone.now() - ago)
    finished = list(Game.objects.filter(status=Game.Status.FINISHED).order_by("pk"))
    ids = [game.pk for game in finished]
    batch = 6 if mode == "periods" else len(ids)
    indexed = sum(explorer.index_games(ids[i : i + batch]) for i in range(0, len(ids), batch))
    assert indexed == len(finished)
    if mode == "periods":
        assert ExplorerPosition.objects.filter(dated=True).count() > 10
        assert ExplorerPeriod.objects.filter(month=True).exists()
    return {"people": people, "games": finished, "imported": imported}


def _positions(games: list[Game], rng: random.Random, count: int) -> list[str]:
    seen: set[str] = set()
    for game in games:
        position = Position.from_string(game.start_position)
        seen.add(str(position))
        for text in game.turns.order_by("ply").values_list("text", flat=True):
            position.push_text(text)
            seen.add(str(position))
    return rng.sample(sorted(seen), min(count, len(seen)))


def test_unfiltered_counts_match_a_brute_force_count_for_random_positions(api, archive) -> None:
    rng = random.Random(5)
    positions = [str(Position.standard()), *_positions(archive["games"], rng, 30)]
    positions.append("B4B00,C1W00,C2W00,C5B00,D2W00,D6B00 w 0-0")  # the transposition
    for text in positions:
        response = api.get(URL, {"position": text})
        assert response.status_code == 200
        assert response.json() == _brute_force(archive["games"], text), text
    transposed = api.get(URL, {"position": positions[-1]}).json()
    assert transposed["games"] == 3  # two orders played here, and the imported game
    assert [row["turn"] for row in transposed["turns"]] == ["D2L"]


def test_the_default_is_the_standard_start_and_turns_are_sorted(api, archive) -> None:
    body = api.get(URL).json()
    assert body["position"] == str(Position.standard())
    assert body["games"] == len(archive["games"])
    keys = [(-row["games"], row["turn"]) for row in body["turns"]]
    assert keys == sorted(keys)
    for row in body["turns"]:
        assert row["white"] + row["black"] + row["draws"] == row["games"]


def _date_ranges() -> dict[str, tuple[datetime.date | None, datetime.date | None]]:
    """since/until pairs: whole months, partial months at either end, one month, open."""
    today = timezone.now().date()
    month = (today - datetime.timedelta(days=70)).replace(day=1)
    next_next = (month + datetime.timedelta(days=62)).replace(day=1)
    day = datetime.timedelta(days=1)
    return {
        "whole months": (month, next_next - day),
        "partial ends": (month + 9 * day, next_next + 12 * day),
        "within a month": (month + 3 * day, month + 20 * day),
        "since": (month + 17 * day, None),
        "until": (None, month + 5 * day),
        "one day": (month + 9 * day, month + 9 * day),
        "empty": (month + 9 * day, month),
    }


def _in(game: Game, since: datetime.date | None, until: datetime.date | None) -> bool:
    day = game.finished.date()
    return (since is None or since <= day) and (until is None or day <= until)


@pytest.mark.parametrize("archive", ["entries", "periods"], indirect=True)
def test_filters_match_a_brute_force_count(api, archive) -> None:
    ann, ben, cat = (person.pk for person in archive["people"])
    games = archive["games"]
    ranges = _date_ranges()
    cases: list[tuple[dict[str, str], Any]] = [
        ({"player": "ann"}, lambda g: ann in (g.white_id, g.black_id)),
        ({"player": "ben", "color": "white"}, lambda g: g.white_id == ben),
        ({"player": "cat", "color": "black"}, lambda g: g.black_id == cat),
        ({"rated": "true"}, lambda g: g.rated),
        ({"rated": "false"}, lambda g: not g.rated),
        ({"imported": "false"}, lambda g: not g.imported),
    ]
    for name, (since, until) in ranges.items():
        dates = {"since": since, "until": until}
        params = {k: v.isoformat() for k, v in dates.items() if v is not None}
        cases.append((params, lambda g, s=since, u=until: _in(g, s, u)))
        if name in ("partial ends", "whole months", "since"):
            cases += [
                ({**params, "rated": "true"}, lambda g, s=since, u=until: g.rated and _in(g, s, u)),
                (
                    {**params, "rated": "false", "imported": "false"},
                    lambda g, s=since, u=until: not g.rated and not g.imported and _in(g, s, u),
                ),
                (
                    {**params, "player": "ann"},
                    lambda g, s=since, u=until: ann in (g.white_id, g.black_id) and _in(g, s, u),
                ),
                (
                    {**params, "player": "ben", "color": "black", "rated": "true"},
                    lambda g, s=since, u=until: g.black_id == ben and g.rated and _in(g, s, u),
                ),
            ]
    rng = random.Random(9)
    texts = [str(Position.standard()), *_positions(games, rng, 12)]
    for params, wanted in cases:
        subset = [game for game in games if wanted(game)]
        for text in texts:
            got = api.get(URL, {"position": text, **params})
            assert got.status_code == 200
            assert got.json() == _brute_force(subset, text), (params, text)
    assert any(not _in(game, *ranges["partial ends"]) for game in games)  # the dates bite


def test_bad_input_is_a_clear_400(api, archive) -> None:
    bad = api.get(URL, {"position": "Z9W00 w 0-0"})
    assert bad.status_code == 400
    assert bad.json()["code"] == "invalid_position" and "Z9" in bad.json()["error"]
    for params in ({"player": "nobody"}, {"color": "white"}, {"since": "soon"}, {"rated": "?"}):
        response = api.get(URL, params)
        assert response.status_code == 400 and response.json()["code"] == "invalid", params


def test_a_game_is_indexed_once_however_often_the_job_runs(archive) -> None:
    ids = [game.pk for game in archive["games"]]
    rows = ExplorerEntry.objects.count()
    start = ExplorerPosition.objects.filter(key=explorer.position_key(str(Position.standard())))
    assert explorer.index_games(ids) == 0
    assert ExplorerEntry.objects.count() == rows
    assert sum(start.values_list("games", flat=True)) == len(ids)
    assert start.count() == 3  # rated, casual, imported (an import is never rated)
    assert list(explorer.unindexed_games()) == []


def test_the_backfill_command_indexes_the_games_the_explorer_lacks(api, alice, bob) -> None:
    from django.core.management import call_command

    from analysis.tasks import index_unindexed_games

    games = [_play(alice.user, bob.user, ["D2L"]) for _ in range(3)]
    assert sorted(explorer.unindexed_games()) == [game.pk for game in games]
    call_command("index_explorer")
    assert api.get(URL).json()["games"] == 3
    assert list(explorer.unindexed_games()) == []
    assert index_unindexed_games.apply().get() == 0  # the hourly catch-up: nothing left


def test_the_backfill_command_counts_by_period_an_index_built_before_periods(
    api, archive, monkeypatch
) -> None:
    from django.core.management import call_command

    assert not ExplorerPosition.objects.filter(dated=True).exists()  # fewer than DATED_FROM
    monkeypatch.setattr(explorer, "DATED_FROM", 2)
    call_command("index_explorer")
    assert ExplorerPosition.objects.filter(dated=True).count() > 10
    assert not ExplorerPosition.objects.filter(dated=False, games__gte=2).exists()
    since, until = _date_ranges()["partial ends"]
    subset = [game for game in archive["games"] if _in(game, since, until)]
    for text in [str(Position.standard()), *_positions(subset, random.Random(4), 8)]:
        params = {"position": text, "since": since.isoformat(), "until": until.isoformat()}
        assert api.get(URL, params).json() == _brute_force(subset, text), text
