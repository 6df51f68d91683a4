"""Random boards and positions for the property and oracle tests."""

from __future__ import annotations

import random

from engine import Position
from engine.tests import naive


def random_board(rng: random.Random) -> frozenset[naive.Cell]:
    """The standard board half the time, else a random connected blob of 2-40 cells."""
    if rng.random() < 0.5:
        return naive.parse_board(naive.STANDARD_BOARD)
    size = rng.randint(2, 40)
    start = (rng.randint(0, 25), rng.randint(0, 98))
    cells = {start}
    while len(cells) < size:
        c, r = rng.choice(sorted(cells))
        dc, dr = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)])
        n = (c + dc, r + dr)
        if 0 <= n[0] < 26 and 0 <= n[1] < 99:
            cells.add(n)
    return frozenset(cells)


def random_position_string(rng: random.Random) -> str:
    """A legal position string with random pieces (supply limits respected)."""
    cells = random_board(rng)
    state = naive.State(cells)
    free = sorted(cells)
    rng.shuffle(free)
    supply = {c: {"adaptoids": 12, "legs": 12, "pincers": 12} for c in "WB"}
    fill = rng.random()
    for cell in free[: int(len(free) * fill) + 1]:
        color = rng.choice("WB")
        s = supply[color]
        if not s["adaptoids"]:
            continue
        total = rng.choice([0, 0, 1, 2, 3, 4, 5, 6])
        legs = rng.randint(0, total)
        pincers = total - legs
        legs = min(legs, s["legs"])
        pincers = min(pincers, s["pincers"])
        s["adaptoids"] -= 1
        s["legs"] -= legs
        s["pincers"] -= pincers
        state.pieces[cell] = naive.Adaptoid(color, legs, pincers)
    state.side = rng.choice("WB")
    top = 6 if rng.random() < 0.1 else 4
    state.score = {"W": rng.randint(0, top), "B": rng.randint(0, top)}
    return naive.to_string(state)


def random_game_position(rng: random.Random, max_turns: int = 60) -> Position:
    """A position reached by random turns, from the start or from a random position."""
    if rng.random() < 0.5:
        pos = Position.standard()
    else:
        pos = Position.from_string(random_position_string(rng))
    for _ in range(rng.randint(0, max_turns)):
        if pos.outcome() is not None:
            break
        pos.push(pos.random_turn(rng))
    return pos
