"""Conditional turns are throttled per player (#28.11): a PUT at the size limit costs a
web worker about 0.35 s.  THROTTLE_CONDITIONAL counts the API's PUTs and the game page's
"add a line" together; reading and deleting are free."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import ConditionalLines, Game
from games.tests.helpers import submit

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def two_a_minute(settings: Any) -> None:
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "conditional": "2/minute"}


@pytest.fixture
def game(alice: Any, bob: Any) -> Game:
    """Alice (White) has played D2L: Bob is to move, Alice may prepare her replies."""
    game = services.start_game(white=alice.user, black=bob.user)
    assert submit(alice, game.pk, 1, "D2L").status_code == 201
    return game


def put(player: Any, game: Game, lines: list[list[str]]) -> Any:
    url = f"/api/v1/games/{game.pk}/conditional"
    return player.client.put(url, {"ply": 2, "lines": lines}, format="json")


def test_puts_past_the_rate_get_429_throttled_with_retry_after(alice: Any, game: Game) -> None:
    assert put(alice, game, [["D6L", "D2P"]]).status_code == 200
    assert put(alice, game, [["D6P", "D2P"]]).status_code == 200
    refused = put(alice, game, [["D6L", "D3"]])
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "throttled" and int(refused["Retry-After"]) == body["retry_after"] >= 1
    url = f"/api/v1/games/{game.pk}/conditional"
    # Not stored; reading and deleting still work.
    assert alice.client.get(url).json()["lines"] == [["D6P", "D2P"]]
    assert alice.client.delete(url).status_code == 204


def test_the_game_pages_form_shares_the_allowance_and_says_so(
    client: Any, alice: Any, game: Game
) -> None:
    client.force_login(alice.user)
    page = f"/games/{game.pk}/conditional/"
    assert put(alice, game, [["D6L", "D2P"]]).status_code == 200
    assert client.post(page, {"action": "add", "line": "D6P D3"}).status_code == 302
    refused = client.post(page, {"action": "add", "line": "D6P D2P"}, follow=True)
    assert "changing your conditional turns too fast" in refused.content.decode()
    # The line waits in the address to be added again; nothing was stored.
    assert refused.redirect_chain[-1][0].endswith("?line=D6P+D2P")
    assert len(ConditionalLines.objects.get(game=game).tree) == 2
    # Deleting is not counted.
    client.post(page, {"action": "delete"})
    assert not ConditionalLines.objects.exists()
