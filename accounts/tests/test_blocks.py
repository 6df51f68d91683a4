"""Blocking a player: the API, the settings page, and what a block refuses
(challenges either way, the open challenges, messages: chat/tests)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts import services
from accounts.models import Block
from games import services as games
from games.models import Challenge

pytestmark = pytest.mark.django_db


def block_url(name: str) -> str:
    return f"/api/v1/players/{name}/block"


def challenge(player: Any, **fields: Any) -> Any:
    return player.client.post("/api/v1/challenges", {"rated": False, **fields}, format="json")


def test_block_and_unblock_over_the_api(alice, bob, api) -> None:
    first = alice.client.post(block_url("bob"))
    assert first.status_code == 201 and first.json()["username"] == "bob"
    assert alice.client.post(block_url("bob")).status_code == 200  # again: no second row
    assert Block.objects.filter(blocker=alice.user, blocked=bob.user).count() == 1
    assert services.is_blocked(bob.user.pk, alice.user.pk)  # either direction counts
    assert alice.client.delete(block_url("bob")).status_code == 204
    assert alice.client.delete(block_url("bob")).status_code == 204  # harmless twice
    assert not services.is_blocked(alice.user.pk, bob.user.pk)


def test_blocking_nobody_oneself_or_anonymously_is_refused(alice, api) -> None:
    unknown = alice.client.post(block_url("nobody"))
    assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
    own = alice.client.post(block_url("alice"))
    assert own.status_code == 400 and own.json()["code"] == "invalid"
    assert list(own.json()["fields"]) == ["username"]
    assert api.post(block_url("alice")).status_code == 401
    assert api.delete(block_url("alice")).status_code == 401
    assert Block.objects.count() == 0


@pytest.mark.parametrize("blocker", ["alice", "bob"])
def test_no_challenge_between_blocked_players_either_way(alice, bob, blocker) -> None:
    pending = games.create_challenge(creator=alice.user, opponent="bob")
    players = {"alice": alice, "bob": bob}
    other = "bob" if blocker == "alice" else "alice"
    players[blocker].client.post(block_url(other))
    for player, opponent in ((alice, "bob"), (bob, "alice")):
        refused = challenge(player, opponent=opponent)
        assert refused.status_code == 403 and refused.json()["code"] == "blocked"
    # A challenge made before the block cannot be accepted any more either.
    accept = bob.client.post(f"/api/v1/challenges/{pending.pk}/accept")
    assert accept.status_code == 403 and accept.json()["code"] == "blocked"
    assert Challenge.objects.count() == 1


def test_a_blocked_player_is_not_offered_nor_can_accept_an_open_challenge(
    alice, bob, stranger
) -> None:
    open_one = games.create_challenge(creator=alice.user)
    services.block(blocker=alice.user, blocked=bob.user)
    listed = bob.client.get("/api/v1/challenges", {"open": "true"}).json()["results"]
    assert listed == []
    assert [
        c["id"] for c in stranger.client.get("/api/v1/challenges?open=true").json()["results"]
    ] == [open_one.pk]
    refused = bob.client.post(f"/api/v1/challenges/{open_one.pk}/accept")
    assert refused.status_code == 403 and refused.json()["code"] == "blocked"
    assert stranger.client.post(f"/api/v1/challenges/{open_one.pk}/accept").status_code == 201
    # The lobby page does not show it either.
    page = Client()
    page.force_login(bob.user)
    assert f"/challenges/{open_one.pk}/accept/" not in page.get("/lobby/").content.decode()


def test_the_settings_page_lists_blocks_and_unblocks(alice, bob, stranger) -> None:
    page = Client()
    page.force_login(alice.user)
    assert "/settings/blocks/" in page.get("/settings/").content.decode()
    answer = page.post("/settings/blocks/", {"username": "bob"}, follow=True)
    html = answer.content.decode()
    assert answer.status_code == 200 and "bob is blocked." in html
    block = Block.objects.get(blocker=alice.user)
    assert f"/settings/blocks/{block.pk}/unblock/" in html
    for name, error in (("nobody", "There is no player called nobody."), ("alice", "yourself")):
        assert error in page.post("/settings/blocks/", {"username": name}).content.decode()
    # Another player cannot lift my block.
    intruder = Client()
    intruder.force_login(stranger.user)
    assert intruder.post(f"/settings/blocks/{block.pk}/unblock/").status_code == 404
    done = page.post(f"/settings/blocks/{block.pk}/unblock/", follow=True)
    assert "bob is no longer blocked." in done.content.decode()
    assert "You have blocked nobody." in done.content.decode()
    assert not Block.objects.exists()


def test_a_player_page_offers_to_block_the_player(alice, bob) -> None:
    page = Client()
    page.force_login(alice.user)
    assert "Block this player" not in page.get("/players/alice/").content.decode()
    assert "Block this player" in page.get("/players/bob/").content.decode()
    page.post("/settings/blocks/", {"username": "bob"})
    assert services.is_blocked(alice.user.pk, bob.user.pk)
