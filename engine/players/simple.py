"""The two simplest players: ``random`` and ``greedy`` (one turn ahead)."""

from __future__ import annotations

import time

from engine.players.base import Player
from engine.players.evaluation import WIN, evaluate
from engine.position import Position, RawTurn

__all__ = ["GREEDY_MARGIN", "GreedyPlayer", "RandomPlayer", "turn_order_key"]

#: greedy picks at random among the turns this close to the best (1000 = a capture)
GREEDY_MARGIN = 15


class RandomPlayer(Player):
    """Plays :meth:`Position.random_turn`: a move option uniformly (or no move),
    then an action uniformly among those available after it.

    >>> from engine.players import get_player
    >>> a = get_player("random", seed=3).choose(Position.standard(), seconds=1)
    >>> b = get_player("random", seed=3).choose(Position.standard(), seconds=1)
    >>> a == b
    True
    """

    def _choose_raw(self, pos: Position, deadline: float) -> RawTurn:
        return pos._random_raw(self.rng)


def turn_order_key(pos: Position, raw: RawTurn) -> int:
    """A cheap guess of how good a turn is, to try likely good turns first.

    Attacks come first (a clean capture before a trade), then turns that
    move or create next to an enemy adaptoid, then the rest.

    >>> pos = Position.from_string("D3W11,D4B00,F7B00 w 0-0")
    >>> turns = sorted(pos._raw_turns(), key=lambda raw: -turn_order_key(pos, raw))
    >>> pos._raw_to_turn(turns[0]).move
    ('D3', 'D4', True)
    """
    frm, to, attack, cell, kind = raw
    key = 0
    if attack:
        key = 100_000 if pos._pins[frm] > pos._pins[to] else 20_000
    elif frm >= 0:
        key = 10
    if kind == 1:
        key += 50 if pos.board.neighbour_masks[cell] & pos._occ[pos._side ^ 1] else 5
    elif kind == 3:
        key += 30
    elif kind == 2:
        key += 20
    return key


class GreedyPlayer(Player):
    """Looks one turn ahead: plays the turn after which :func:`evaluate` is best.

    The evaluation counts captures, starvation threats to both sides,
    mobility and material (see :mod:`engine.players.evaluation`). A winning
    turn is played at once; among turns within :data:`GREEDY_MARGIN` of the
    best, one is picked at random (``seed``), so games vary. If the
    budget runs out, the best turn seen so far is played (attacks are
    looked at first).

    >>> from engine.players import get_player
    >>> pos = Position.from_string("C3W11,D4B00,F7B00,G7B00 w 4-0")
    >>> str(get_player("greedy", seed=0).choose(pos, seconds=1))
    'C3xD4'
    """

    def _choose_raw(self, pos: Position, deadline: float) -> RawTurn:
        turns = pos._raw_turns()
        if len(turns) == 1:
            return turns[0]
        turns.sort(key=lambda raw: -turn_order_key(pos, raw))
        me = pos._side
        best_value = -2 * WIN
        values: list[tuple[int, RawTurn]] = []
        clock = time.perf_counter
        for n, raw in enumerate(turns):
            if n and not n & 15 and clock() > deadline:
                break
            pos._push_raw(raw)
            outcome = pos._state_outcome()
            if outcome is None:
                value = -evaluate(pos)
            else:
                value = WIN if outcome.winner is not None and outcome.winner.index == me else -WIN
            pos._pop_raw()
            values.append((value, raw))
            best_value = max(best_value, value)
            if value >= WIN:
                break
        best = [raw for value, raw in values if value >= best_value - GREEDY_MARGIN]
        self.info.update(value=best_value, turns=len(turns))
        return best[0] if len(best) == 1 else self.rng.choice(best)
