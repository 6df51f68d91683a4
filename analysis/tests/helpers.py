"""A short finished game with a blunder played on purpose (shared by the analysis tests)."""

from __future__ import annotations

import random
from typing import Any

from engine import Color, Position
from engine.analysis import evaluate
from games import services
from games.models import Game

NODES = 1500  # small and deterministic: the same verdicts on every run and machine
SEED, OPENING_PLIES = 9, 6  # (chosen so that White's worst reply loses 0.39: a blunder)


def worst_turn(position: Position, nodes: int = NODES) -> tuple[str, float]:
    """The mover's worst legal turn by the engine, and the mover's expected score after it."""
    white = position.side_to_move is Color.WHITE
    scored = []
    for turn in position.legal_turns:
        after = position.copy()
        after.push(turn)
        expected = evaluate(after, nodes=nodes).expected
        scored.append((expected if white else 1 - expected, str(turn)))
    mover, text = min(scored)
    return text, mover


def blunder_game(white: Any, black: Any) -> tuple[Game, int]:
    """Six seeded random plies, White's worst turn (ply 7), Black's best, White resigns.
    Returns (game, the blunder's ply)."""
    game = services.start_game(white=white, black=black)
    position = Position.standard()
    rng = random.Random(SEED)
    players = {Color.WHITE: white, Color.BLACK: black}
    for ply in range(1, OPENING_PLIES + 1):
        text = str(position.random_turn(rng))
        services.play_turn(game=game, player=players[position.side_to_move], text=text, ply=ply)
        position.push_text(text)
    blunder, _mover = worst_turn(position)
    services.play_turn(game=game, player=white, text=blunder, ply=OPENING_PLIES + 1)
    position.push_text(blunder)
    reply = evaluate(position, nodes=NODES).best
    assert reply is not None
    services.play_turn(game=game, player=black, text=str(reply), ply=OPENING_PLIES + 2)
    services.resign(game=Game.objects.get(pk=game.pk), player=white)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game, OPENING_PLIES + 1
