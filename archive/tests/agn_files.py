""".agn files for the import tests: many distinct, valid, finished games."""

from __future__ import annotations

import random

from engine import GameRecord, Position, write_game


def distinct_games(count: int, *, seed: int = 1, white: str = "Ann", black: str = "Bob") -> str:
    """`count` different finished games (random legal turns, then a resignation) as .agn."""
    rng = random.Random(seed)
    seen: set[tuple[str, ...]] = set()
    texts = []
    while len(texts) < count:
        position = Position.standard()
        turns: list[str] = []
        for _ in range(rng.randint(2, 24)):
            if position.outcome() is not None:
                break
            turn = rng.choice(list(position.legal_turns))
            position.push(turn)
            turns.append(str(turn))
        if tuple(turns) in seen:
            continue
        seen.add(tuple(turns))
        outcome = position.outcome()
        result = outcome.result() if outcome else ("0-1" if " w " in str(position) else "1-0")
        headers = {"White": white, "Black": black}
        if outcome is None:
            headers["Termination"] = "resignation"
        texts.append(write_game(GameRecord(headers=headers, turns=turns, result=result)))
    return "\n".join(texts)
