"""Game analysis: the API contract, the judgements, resumption (the job's body run here;
test_worker.py runs it in a real worker)."""

from __future__ import annotations

import pytest

from analysis import services
from analysis.models import AnalysedPosition, GameAnalysis
from analysis.tests.helpers import NODES, blunder_game
from engine import Position, Turn
from engine.analysis import evaluate
from games import services as game_services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _small_budget(settings) -> None:
    settings.ANALYSIS_NODES = NODES


def _url(game_id: int) -> str:
    return f"/api/v1/games/{game_id}/analysis"


def test_no_analysis_is_404_not_found(alice, bob) -> None:
    game, _ply = blunder_game(alice.user, bob.user)
    response = alice.client.get(_url(game.pk))
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_request_queues_one_job_and_a_second_request_gets_the_same(alice, bob, stranger) -> None:
    game, _ply = blunder_game(alice.user, bob.user)
    first = stranger.client.post(_url(game.pk))
    assert first.status_code == 202
    # Sent to the worker at once (a free slot): no place in line.
    assert first.json() == {"status": "queued", "progress": 0.0, "place_in_line": None}
    again = bob.client.post(_url(game.pk))
    assert again.status_code == 202 and again.json() == first.json()
    assert GameAnalysis.objects.filter(game=game).count() == 1
    assert alice.client.get(_url(game.pk)).json() == first.json()


def test_anonymous_cannot_request_and_an_ongoing_game_is_refused(api, alice, bob) -> None:
    game, _ply = blunder_game(alice.user, bob.user)
    assert api.post(_url(game.pk)).status_code == 401
    ongoing = game_services.start_game(white=alice.user, black=bob.user)
    response = alice.client.post(_url(ongoing.pk))
    assert response.status_code == 409 and response.json()["code"] == "game_not_finished"
    assert alice.client.post(_url(999_999)).status_code == 404


def test_the_finished_analysis_has_one_entry_per_turn_with_the_blunder(alice, bob) -> None:
    game, blunder_ply = blunder_game(alice.user, bob.user)
    analysis, created = services.request_analysis(game=game, user=alice.user)
    assert created and analysis.nodes == NODES
    assert services.run_analysis(analysis.pk) == game.ply + 1

    response = alice.client.get(_url(game.pk))
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "done" and body["progress"] == 1.0
    texts = list(game.turns.order_by("ply").values_list("text", flat=True))
    assert [entry["ply"] for entry in body["turns"]] == list(range(1, game.ply + 1))
    assert [entry["turn"] for entry in body["turns"]] == texts

    # Each entry against the engine itself: eval after the turn, best before it.
    position = Position.standard()
    for entry in body["turns"]:
        before = evaluate(position, nodes=NODES)
        assert entry["best"] == str(before.best)
        assert Turn.parse(entry["best"]) in position.legal_turns
        position.push_text(entry["turn"])
        assert entry["eval"] == round(evaluate(position, nodes=NODES).expected, 3)
        assert 0.0 <= entry["eval"] <= 1.0
        assert entry["judgement"] in (None, "inaccuracy", "mistake", "blunder")
    blunder = body["turns"][blunder_ply - 1]
    assert blunder["judgement"] == "blunder", body["turns"]
    assert blunder["best"] != blunder["turn"]

    # Asking again once done: 200 and the same answer.
    again = bob.client.post(_url(game.pk))
    assert again.status_code == 200 and again.json() == body


def test_judgement_thresholds() -> None:
    assert services.judgement(0.05) is None
    assert services.judgement(0.1) == "inaccuracy"
    assert services.judgement(0.8 - 0.6) == "mistake"  # 0.19999999999999996
    assert services.judgement(0.3) == "blunder"
    assert services.judgement(-0.4) is None  # better than the engine expected


def test_a_job_run_again_keeps_the_stored_positions_and_analyses_the_rest(alice, bob) -> None:
    game, _ply = blunder_game(alice.user, bob.user)
    analysis, _created = services.request_analysis(game=game, user=alice.user)
    # A first run that died after three positions (as a killed worker leaves it).
    position = Position.standard()
    for ply, text in enumerate([None, *game.turns.order_by("ply").values_list("text", flat=True)]):
        if text:
            position.push_text(text)
        if ply == 3:
            break
        verdict = evaluate(position, nodes=NODES)
        AnalysedPosition.objects.create(
            analysis=analysis, ply=ply, expected=verdict.expected, best=str(verdict.best)
        )
    kept = dict(AnalysedPosition.objects.filter(analysis=analysis).values_list("ply", "pk"))
    GameAnalysis.objects.filter(pk=analysis.pk).update(status=GameAnalysis.Status.RUNNING)
    assert alice.client.get(_url(game.pk)).json() == {
        "status": "running",
        "progress": round(3 / (game.ply + 1), 3),
        "place_in_line": None,
    }

    assert services.run_analysis(analysis.pk) == game.ply + 1 - 3  # only the rest
    rows = dict(AnalysedPosition.objects.filter(analysis=analysis).values_list("ply", "pk"))
    assert sorted(rows) == list(range(game.ply + 1))
    assert {ply: rows[ply] for ply in kept} == kept  # the earlier rows untouched
    assert services.run_analysis(analysis.pk) == 0  # done: a redelivered message does nothing
    assert len(alice.client.get(_url(game.pk)).json()["turns"]) == game.ply


def test_others_are_throttled_but_the_players_are_not(settings, alice, bob, stranger) -> None:
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "analysis": "1/hour"}
    games = [blunder_game(alice.user, bob.user)[0] for _ in range(3)]
    assert stranger.client.post(_url(games[0].pk)).status_code == 202
    throttled = stranger.client.post(_url(games[1].pk))
    assert throttled.status_code == 429 and throttled.json()["code"] == "throttled"
    # The existing job is no new work: asking again is answered.
    assert stranger.client.post(_url(games[0].pk)).status_code == 202
    for game in games[1:]:
        assert alice.client.post(_url(game.pk)).status_code == 202
