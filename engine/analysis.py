"""Analysis of a position: its expected score, best turn and principal variation.

:func:`evaluate` runs the ``search`` player's alpha-beta search
(:class:`~engine.players.search.SearchPlayer`) on a position, limited by a
node budget, a time budget or both, and returns an :class:`Evaluation`.
Pure Python, like the rest of the engine.

* A **node budget** makes the answer deterministic: the same position and
  ``nodes`` always give the same evaluation, on any machine. (The first
  iteration, one turn deep, always completes, so a tiny budget still gives a
  best turn: it may spend a few hundred nodes more.)
* A **time budget** (``seconds``) gives a deeper search on a faster machine,
  and so can differ from run to run.
* Neither: a node budget of :data:`DEFAULT_NODES`.

The expected score
------------------

The search scores a position for the side to move in thousandths of a
capture (one enemy adaptoid taken is worth about 1000; see
:mod:`engine.players.evaluation`). That value ``v`` is mapped to the side to
move's expected score (a win 1, a draw 1/2, a loss 0) by a logistic curve::

    expected = 1 / (1 + exp(-v / EXPECTED_SCALE))

and to White's by ``1 - expected`` when Black is to move. The scale
:data:`EXPECTED_SCALE` was fitted by maximum likelihood to the results of
self-play games (``python bench/players.py --fit --games 48 --nodes 1500``
with the fitted evaluation weights: the search value of every position of
48 seeded games of the search against itself, against the result of the
game; 1565 positions, scale 791, log loss 0.5421 against 0.5453 for the
hand-set weights' scale of 640 and 0.693 for a constant 1/2). One capture
ahead (about 1000) is then an expected score of 0.78 for the side to move;
see docs/players.md. A forced result found by the search is exact:
1.0 for a forced win of White, 0.0 for a forced win of Black. A finished
game (captures, elimination, repetition) is 1.0, 0.5 or 0.0 exactly, with no
best turn.

>>> from engine import Position
>>> result = evaluate(Position("C3W11,D4B00,F7B00,G7B00 w 4-0"), nodes=2000)
>>> result.expected, str(result.best), [str(turn) for turn in result.pv]
(1.0, 'C3xD4', ['C3xD4'])
>>> evaluate(Position("D2W00,D6B00 b 5-3"))
Evaluation(expected=1.0, best=None, pv=(), value=None, depth=0, nodes=0)
>>> start = evaluate(Position.standard(), nodes=3000)
>>> 0.3 < start.expected < 0.7, start.best in Position.standard().legal_turns
(True, True)
>>> start == evaluate(Position.standard(), nodes=3000)
True
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from engine._text import shown_number
from engine.position import Color, Position
from engine.turn import Turn

__all__ = [
    "DEFAULT_NODES",
    "EXPECTED_SCALE",
    "MAX_NODES",
    "Evaluation",
    "evaluate",
    "expected_score",
]

#: the node budget of :func:`evaluate` when neither ``seconds`` nor ``nodes`` is given
DEFAULT_NODES = 20_000

#: the largest node budget :func:`evaluate` accepts (about an hour of search)
MAX_NODES = 100_000_000

#: the logistic scale, in thousandths of a capture, of :func:`expected_score`
EXPECTED_SCALE = 790

_WON = 1_000_000 - 1000  # search values beyond this are forced results


@dataclass(frozen=True)
class Evaluation:
    """The analysis of a position (see the module docstring).

    ``expected`` is White's expected score in [0, 1]; ``best`` the best turn
    (None if the game is over); ``pv`` the principal variation, the best turn
    first; ``value`` the search value for the side to move (None if the game
    is over); ``depth`` the number of turns of the deepest completed search;
    ``nodes`` the positions searched.
    """

    expected: float
    best: Turn | None
    pv: tuple[Turn, ...]
    value: int | None
    depth: int
    nodes: int


def expected_score(value: int) -> float:
    """The side to move's expected score for a search value (thousandths of a capture).

    >>> expected_score(0), round(expected_score(1000), 3), round(expected_score(-1000), 3)
    (0.5, 0.78, 0.22)
    >>> expected_score(999_990), expected_score(-999_990)
    (1.0, 0.0)
    """
    if value >= _WON:
        return 1.0
    if value <= -_WON:
        return 0.0
    return 1.0 / (1.0 + math.exp(-value / EXPECTED_SCALE))


def evaluate(
    position: Position, *, seconds: float | None = None, nodes: int | None = None
) -> Evaluation:
    """Search ``position`` (left unchanged) within ``seconds`` and/or ``nodes``.

    With both budgets the search stops at the first one reached. ValueError
    for a budget without end: ``seconds`` that is not a player's time budget
    (more than 0, at most an hour: :func:`~engine.players.base.check_seconds`),
    ``nodes`` that is not a whole number from 1 to :data:`MAX_NODES`.
    """
    from engine.players.base import check_seconds
    from engine.players.search import SearchPlayer

    if seconds is not None:
        check_seconds(seconds)
    if nodes is not None and (
        isinstance(nodes, bool) or not isinstance(nodes, int) or not 1 <= nodes <= MAX_NODES
    ):
        raise ValueError(
            f"nodes is a whole number from 1 to {MAX_NODES}, not {shown_number(nodes)}"
        )
    outcome = position.outcome()
    if outcome is not None:
        if outcome.winner is None:
            expected = 0.5
        else:
            expected = 1.0 if outcome.winner is Color.WHITE else 0.0
        return Evaluation(expected, None, (), None, 0, 0)
    if seconds is None and nodes is None:
        nodes = DEFAULT_NODES
    started = time.perf_counter()
    deadline = math.inf if seconds is None else started + seconds
    player = SearchPlayer("analysis", seed=0, max_nodes=nodes)
    pos = position.copy()
    raw = player.search(pos, deadline)
    value = int(player.info["value"])
    depth = int(player.info["depth"])
    line = player.principal_variation(pos, raw, max(depth, 1))
    pv = []
    for step in line:
        pv.append(pos._raw_to_turn(step))
        pos._push_raw(step)
    mover = expected_score(value)
    expected = mover if position.side_to_move is Color.WHITE else 1.0 - mover
    return Evaluation(expected, pv[0], tuple(pv), value, depth, player.nodes)
