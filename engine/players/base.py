"""The interface every computer player implements."""

from __future__ import annotations

import random
import time

from engine._text import shown_number
from engine.position import Position, RawTurn
from engine.turn import Turn

__all__ = ["MAX_SECONDS", "SAFETY", "Player", "check_seconds"]

#: share of the budget a player plans to use; the rest covers the time to
#: unwind a search, convert the turn and the odd garbage-collection pause
SAFETY = 0.85

#: the largest time budget for one turn, in seconds (a search never ends by itself)
MAX_SECONDS = 3600.0


def check_seconds(seconds: float) -> float:
    """``seconds`` if it is a time budget: a number more than 0 and at most
    :data:`MAX_SECONDS`; ValueError otherwise (infinity, NaN, a string...).

    >>> check_seconds(0.5)
    0.5
    >>> check_seconds(float("inf"))
    Traceback (most recent call last):
    ...
    ValueError: the time budget is a number of seconds more than 0 and at most 3600, not inf
    """
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, (int, float))
        or not 0 < seconds <= MAX_SECONDS
    ):
        raise ValueError(
            "the time budget is a number of seconds more than 0 and at most "
            f"{MAX_SECONDS:g}, not {shown_number(seconds)}"
        )
    return seconds


class Player:
    """A computer player: :meth:`choose` picks a legal turn within a time budget.

    Subclasses implement :meth:`_choose_raw` on a private copy of the position.
    ``seed`` makes the player's random choices (tie-breaks) reproducible.

    >>> from engine.players import get_player
    >>> player = get_player("greedy", seed=1)
    >>> player
    get_player('greedy', seed=1)
    >>> player.choose(Position.standard(), seconds=0.5) in Position.standard().legal_turns
    True
    """

    def __init__(self, name: str, *, seed: int | None = None) -> None:
        self.name = name
        self.seed = seed
        self.rng = random.Random(seed)
        #: what the last :meth:`choose` found (depth, nodes, value...), for benches and logs
        self.info: dict[str, float | int | str] = {}

    def choose(self, position: Position, *, seconds: float) -> Turn:
        """A legal turn of ``position`` (which must not be over), within ``seconds``.

        The position is not modified. Raises ValueError if the game is over or
        ``seconds`` is not a time budget (:func:`check_seconds`).
        """
        check_seconds(seconds)
        if position.outcome() is not None:
            raise ValueError(f"the game is over in {position.to_string()!r}")
        started = time.perf_counter()
        deadline = started + seconds * SAFETY
        pos = position.copy()
        self.info = {}
        raw = self._choose_raw(pos, deadline)
        self.info["seconds"] = round(time.perf_counter() - started, 4)
        return position._raw_to_turn(raw)

    def _choose_raw(self, pos: Position, deadline: float) -> RawTurn:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"get_player({self.name!r}, seed={self.seed!r})"
