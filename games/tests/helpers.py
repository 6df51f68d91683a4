"""Test helpers: pick turns with the engine, open games through the API."""

from __future__ import annotations

import random
from typing import Any

from engine import Position, Turn


def pick_turn(position_text: str, rng: random.Random) -> str:
    """A turn chosen with the engine: a winning turn if any, else the best capture, else random.

    Deterministic for a seeded rng; plays decisive enough games to finish quickly.
    """
    position = Position.from_string(position_text)
    mover = position.side_to_move
    turns = sorted(position.legal_turns, key=str)
    best: list[Turn] = []
    best_score = None
    for turn in turns:
        position.push(turn)
        outcome = position.outcome()
        white, black = position.scores
        position.pop()
        if outcome is not None and outcome.winner == mover:
            return str(turn)
        gain = (white - black) if mover.value == "white" else (black - white)
        if best_score is None or gain > best_score:
            best, best_score = [turn], gain
        elif gain == best_score:
            best.append(turn)
    return str(rng.choice(best))


def start_standard_game(challenger: Any, opponent: Any, color: str = "white") -> dict[str, Any]:
    """challenger challenges opponent (challenger plays `color`), opponent accepts: the game."""
    made = challenger.client.post(
        "/api/v1/challenges",
        {
            "opponent": opponent.username,
            "color": color,
            "opening": "standard",
            "days_per_turn": 3,
            "rated": True,
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    accepted = opponent.client.post(f"/api/v1/challenges/{made.json()['id']}/accept")
    assert accepted.status_code == 201, accepted.json()
    return accepted.json()["game"]


def submit(player: Any, game_id: int, ply: int, turn: str) -> Any:
    return player.client.post(
        f"/api/v1/games/{game_id}/turns", {"ply": ply, "turn": turn}, format="json"
    )


def replays_to_its_cache(game_id: int) -> bool:
    """The game's stored turns, numbered 1..n, replay legally (checked) to its cached
    position and ply: the check the archive's verification makes, in a few lines here
    (the games app's tests do not use the archive app, which sits above games)."""
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    if not game.start_position:
        return not game.turns.exists()
    position = Position.from_string(game.start_position)
    plies = list(game.turns.order_by("ply").values_list("ply", "text"))
    if [ply for ply, _text in plies] != list(range(1, len(plies) + 1)):
        return False
    try:
        for _ply, text in plies:
            position.push_text(text)
    except ValueError:
        return False
    over = position.outcome() is not None
    return (
        len(plies) == game.ply
        and str(position) == game.position
        and (not over or game.status == Game.Status.FINISHED)
    )
