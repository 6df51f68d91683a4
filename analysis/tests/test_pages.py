"""The game page's analysis panel (graph, judged turns, Analyse button) and the explorer page."""

from __future__ import annotations

import re

import pytest

from analysis import explorer, services
from analysis.models import GameAnalysis
from analysis.tests.helpers import NODES, blunder_game
from engine import Position

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _small_budget(settings) -> None:
    settings.ANALYSIS_NODES = NODES


def test_the_analyse_button_queues_the_job_and_the_page_then_shows_progress(
    client, alice, bob
) -> None:
    game, _ply = blunder_game(alice.user, bob.user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Log in to ask for a computer analysis" in page
    client.force_login(alice.user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'action="/games/{game.pk}/analyse/"' in page
    response = client.post(f"/games/{game.pk}/analyse/")
    assert response.status_code == 302 and response["Location"].endswith(
        f"/games/{game.pk}/#analysis"
    )
    assert GameAnalysis.objects.filter(game=game, status="queued").exists()
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Analysis in progress: 0%" in page and "analysis/progress.js" in page


def test_the_graph_links_every_ply_and_marks_the_blunder_with_the_better_turn(
    client, alice, bob
) -> None:
    game, blunder_ply = blunder_game(alice.user, bob.user)
    analysis, _created = services.request_analysis(game=game, user=alice.user)
    services.run_analysis(analysis.pk)
    page = client.get(f"/games/{game.pk}/?ply=3").content.decode()
    graph = re.search(r'<svg[^>]*class="eval-graph".*?</svg>', page, re.DOTALL)
    assert graph is not None
    links = re.findall(r'<a href="\?ply=(\d+)"', graph.group(0))
    assert links == [str(ply) for ply in range(game.ply + 1)]
    assert 'class="point blunder"' in graph.group(0)
    assert 'class="point current"' in graph.group(0) or "current" in graph.group(0)
    entry = services.turn_entries(analysis)[blunder_ply - 1]
    assert re.search(
        rf'href="\?ply={blunder_ply}">{blunder_ply}\. {re.escape(entry.turn)}</a>\s*'
        rf"<strong>Blunder</strong> — better: <span class=\"mono\">{re.escape(entry.best)}</span>",
        page,
    )


def test_the_explorer_page_shows_counts_and_goes_deeper(client, alice, bob) -> None:
    game, _ply = blunder_game(alice.user, bob.user)
    explorer.index_games([game.pk])
    page = client.get("/explorer/").content.decode()
    assert "1 game reached this position" in page
    first = game.turns.get(ply=1).text
    deeper = re.search(rf'<a class="mono" href="(\?[^"]+)">{re.escape(first)}</a>', page)
    assert deeper is not None
    page = client.get("/explorer/" + deeper.group(1).replace("&amp;", "&")).content.decode()
    after = Position.standard()
    after.push_text(first)
    assert f'value="{after}"' in page
    assert f'href="/games/{game.pk}/?ply=1"' in page  # the game, at the position
    bad = client.get("/explorer/", {"position": "Z9W00 w 0-0", "player": "nobody"})
    assert bad.status_code == 200  # messages, and the start
    assert "Z9" in bad.content.decode() and "filters were ignored" in bad.content.decode()


@pytest.mark.parametrize(
    ("language", "explorer_title", "panel_title", "blunder"),
    [
        ("ru", "Дебютный справочник", "Компьютерный анализ", "Грубая ошибка"),
        ("eo", "Malfermaĵa esplorilo", "Komputila analizo", "Fuŝo"),
    ],
)
def test_the_pages_come_out_in_the_language(
    client, alice, bob, language, explorer_title, panel_title, blunder
) -> None:
    game, _ply = blunder_game(alice.user, bob.user)
    analysis, _created = services.request_analysis(game=game, user=alice.user)
    services.run_analysis(analysis.pk)
    explorer.index_games([game.pk])
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    page = client.get("/explorer/", **headers).content.decode()
    assert explorer_title in page and "Opening explorer" not in page
    page = client.get(f"/games/{game.pk}/", **headers).content.decode()
    assert panel_title in page and blunder in page and "Computer analysis" not in page


def test_a_game_in_play_has_no_analysis_panel(client, alice, bob) -> None:
    from games import services as game_services

    game = game_services.start_game(white=alice.user, black=bob.user)
    client.force_login(alice.user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Computer analysis" not in page and "/analyse/" not in page
