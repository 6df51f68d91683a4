"""Make docs/analysis-game.png and docs/analysis-explorer.png (not a test).

Run from the repository root:  .venv/bin/python docs/analysis_screenshots.py

A scratch SQLite database (var/screenshots.sqlite3) gets the analysis tests' game with a
blunder (analysis/tests/helpers.py, opening seed 19), analysed at the default node budget, and 60
seeded random games for the explorer; Chromium (playwright) then loads the pages,
each request answered by Django's test client (no server needed).
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DB = ROOT / "var" / "screenshots.sqlite3"
DB.unlink(missing_ok=True)
os.environ["DATABASE_URL"] = f"sqlite:///{DB}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["ADAPTOID_TESTING"] = "1"
# Playwright's sync API runs an event loop; Django is only called from its handler here.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

import django

django.setup()

from django.core.management import call_command
from django.test import Client
from playwright.sync_api import sync_playwright

from accounts import services as accounts
from analysis import explorer, services
from analysis.tests import helpers
from engine import Position
from games import services as games
from games.models import Game


def fill() -> int:
    call_command("migrate", verbosity=0)
    ann = accounts.register_account(username="ann", password="adaptoid-demo-42")
    ben = accounts.register_account(username="ben", password="adaptoid-demo-42")
    # The tests' seed makes a blunder at their small node budget; at the default budget
    # the analysis here runs with, opening seed 19's worst turn is judged a blunder.
    helpers.SEED = 19
    game, _ply = helpers.blunder_game(ann, ben)
    analysis, _created = services.request_analysis(game=game, user=ann)
    services.run_analysis(analysis.pk)
    rng = random.Random(3)
    for _ in range(60):
        other = games.start_game(white=ann, black=ben) if rng.random() < 0.5 else None
        other = other or games.start_game(white=ben, black=ann)
        position = Position.standard()
        players = {"w": other.white, "b": other.black}
        for ply in range(1, rng.randint(2, 10)):
            text = str(position.random_turn(rng))
            mover = players[str(position).split(" ")[1]]
            games.play_turn(game=other, player=mover, text=text, ply=ply)
            position.push_text(text)
        games.resign(game=Game.objects.get(pk=other.pk), player=rng.choice([ann, ben]))
    explorer.index_unindexed()
    return game.pk


def main() -> None:
    game_id = fill()
    client = Client()

    def answer(route) -> None:
        try:
            serve(route)
        except Exception as exc:  # noqa: BLE001  (shown: a handler's error only times out)
            print(f"{route.request.url}: {exc!r}", file=sys.stderr)
            route.abort()

    def serve(route) -> None:
        url = urlsplit(route.request.url)
        response = client.get(url.path + (f"?{url.query}" if url.query else ""))
        body = b"".join(response.streaming_content) if response.streaming else response.content
        route.fulfill(status=response.status_code, headers=dict(response.items()), body=body)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox"]
        )
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.route("http://adaptoid.test/**", answer)
        page.goto(f"http://adaptoid.test/games/{game_id}/?ply=7")
        page.screenshot(path=str(ROOT / "docs" / "analysis-game.png"), full_page=True)
        page.goto("http://adaptoid.test/explorer/")
        page.screenshot(path=str(ROOT / "docs" / "analysis-explorer.png"), full_page=True)
        browser.close()


if __name__ == "__main__":
    main()
