"""An analysed game's .agn download may carry its evaluations as comments."""

from __future__ import annotations

import pytest

from analysis import services
from analysis.tests.helpers import NODES, blunder_game
from engine import read_games

pytestmark = pytest.mark.django_db


def test_the_download_with_evals_carries_them_as_comments_that_read_back(
    settings, client, alice, bob
) -> None:
    settings.ANALYSIS_NODES = NODES
    game, _ply = blunder_game(alice.user, bob.user)
    plain = client.get(f"/games/{game.pk}/record.agn").content.decode()
    assert client.get(f"/games/{game.pk}/record.agn", {"evals": "1"}).content.decode() == plain
    analysis, _created = services.request_analysis(game=game, user=alice.user)
    services.run_analysis(analysis.pk)
    evals = services.evaluations_by_ply(game.pk)
    assert sorted(evals) == list(range(1, game.ply + 1))

    for url in (f"/games/{game.pk}/record.agn", f"/api/v1/games/{game.pk}/record"):
        text = client.get(url, {"evals": "1"}).content.decode()
        assert f"[%eval {evals[1]:.2f}]" in text
        (record,) = list(read_games(text))
        assert record.errors == []
        assert record.comments == {ply: f"[%eval {value:.2f}]" for ply, value in evals.items()}
        (original,) = list(read_games(plain))
        assert record.turns == original.turns and record.result == original.result
    # Without ?evals=1 the download is the same bytes as before the analysis.
    assert client.get(f"/games/{game.pk}/record.agn").content.decode() == plain
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f"/games/{game.pk}/record.agn?evals=1" in page
