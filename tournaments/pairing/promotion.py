"""League divisions: the first season's split and promotion/relegation between seasons.

Pure Python; players are any hashable ids.  Division 1 is the top.  Each
season, in a division of m players, the top ``min(k, m // 2)`` go up (not from
division 1) and as many at the bottom go down (not from the last division).
Players who left are dropped; new entrants join at the bottom: they fill the
last division up to the division size, then open new divisions.  A division
left with a single player joins the one above (a round robin needs two).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

Player = TypeVar("Player", bound=Hashable)


def split(players: Sequence[Player], size: int) -> list[list[Player]]:
    """The first season: players in order (best first) cut into divisions of ``size``."""
    divisions = [list(players[i : i + size]) for i in range(0, len(players), size)]
    return _merge_singles(divisions)


def _merge_singles(divisions: list[list[Player]]) -> list[list[Player]]:
    divisions = [division for division in divisions if division]
    while len(divisions) > 1 and len(divisions[-1]) < 2:
        divisions[-2].extend(divisions.pop())
    return divisions


def movers(division_size: int, promote: int) -> int:
    """How many go up (and down) from a division of ``division_size`` players."""
    return min(promote, division_size // 2)


def next_divisions(
    standings: Sequence[Sequence[Player]],
    *,
    promote: int,
    size: int,
    leaving: frozenset[Player] | set[Player] = frozenset(),
    entrants: Sequence[Player] = (),
) -> list[list[Player]]:
    """Next season's divisions from this season's final standings (each best first)."""
    count = len(standings)
    new: list[list[Player]] = [[] for _ in range(count)]
    for index, ranked in enumerate(standings):
        moving = movers(len(ranked), promote)
        up = list(ranked[:moving]) if index > 0 else []
        down = list(ranked[len(ranked) - moving :]) if index < count - 1 and moving else []
        stay = [p for p in ranked if p not in up and p not in down]
        if up:
            new[index - 1].extend(up)
        new[index].extend(stay)
        if down:
            # Relegated players start the division below from its top.
            new[index + 1][:0] = down
    kept = [[p for p in division if p not in leaving] for division in new]
    already = {p for division in kept for p in division}
    newcomers = [p for p in entrants if p not in leaving and p not in already]
    if kept:
        room = max(0, size - len(kept[-1]))
        kept[-1].extend(newcomers[:room])
        newcomers = newcomers[room:]
    kept.extend(list(newcomers[i : i + size]) for i in range(0, len(newcomers), size))
    return _merge_singles(kept)
