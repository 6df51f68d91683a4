"""Computer players for Adaptoid (pure Python, beside the engine).

A ladder of strengths, weakest first (:data:`PLAYER_NAMES`):

* ``random`` — a random legal turn (:class:`RandomPlayer`);
* ``greedy`` — the best turn one turn ahead by the evaluation (:class:`GreedyPlayer`);
* ``search-1`` — alpha-beta search, 2 turns deep at most (:class:`SearchPlayer`);
* ``search-2`` — alpha-beta search, 3 turns deep at most;
* ``search-v1`` — the ``search`` player of commit 4d4b7f8, frozen
  (:class:`SearchV1Player`, its own copy of the search and the evaluation):
  the baseline every later ``search`` is measured against;
* ``search`` — alpha-beta search, as deep as the time allows.

Every player has ``choose(position, *, seconds) -> Turn``: a legal turn of a
position that is not over, chosen within ``seconds`` (+10%); the position is
not modified. ``seed`` makes the random choices (tie-breaks) reproducible; a
search limited by time depends on the machine's speed, one limited by depth
does not.

>>> from engine import Position
>>> PLAYER_NAMES
('random', 'greedy', 'search-1', 'search-2', 'search-v1', 'search')
>>> player = get_player("search-1", seed=7)
>>> turn = player.choose(Position.standard(), seconds=0.5)
>>> turn in Position.standard().legal_turns
True
>>> get_player("grandmaster")
Traceback (most recent call last):
...
ValueError: unknown player 'grandmaster': choose one of random, greedy, search-1, search-2, search-v1, search
"""

from __future__ import annotations

from collections.abc import Callable

from engine.players.base import Player
from engine.players.evaluation import evaluate, position_key
from engine.players.search import SearchPlayer
from engine.players.search_v1 import SearchV1Player
from engine.players.simple import GreedyPlayer, RandomPlayer

__all__ = [
    "PLAYER_NAMES",
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "SearchV1Player",
    "evaluate",
    "get_player",
    "position_key",
]

_FACTORIES: dict[str, Callable[[str, int | None], Player]] = {
    "random": lambda name, seed: RandomPlayer(name, seed=seed),
    "greedy": lambda name, seed: GreedyPlayer(name, seed=seed),
    "search-1": lambda name, seed: SearchPlayer(name, seed=seed, max_depth=2),
    "search-2": lambda name, seed: SearchPlayer(name, seed=seed, max_depth=3),
    "search-v1": lambda name, seed: SearchV1Player(name, seed=seed),
    "search": lambda name, seed: SearchPlayer(name, seed=seed),
}

#: the player names, weakest first
PLAYER_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def get_player(name: str, *, seed: int | None = None) -> Player:
    """A new player of that name (see :data:`PLAYER_NAMES`); ValueError if unknown."""
    factory = _FACTORIES.get(name)
    if factory is None:
        raise ValueError(f"unknown player {name!r}: choose one of {', '.join(PLAYER_NAMES)}")
    return factory(name, seed)
