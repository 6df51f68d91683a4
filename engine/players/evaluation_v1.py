"""The frozen evaluation of ``search-v1`` (a copy of :mod:`engine.players.evaluation`
as it was at commit 4d4b7f8; never change it: it is the baseline of every claim
that a later ``search`` is stronger).

The original docstring follows.

Static evaluation of a position for the computer players.

:func:`evaluate` scores a position from the point of view of the side to
move, in "milli-captures": one point of score (an enemy adaptoid captured) is
worth about 1000, and a won game :data:`WIN`. It reads the position's internal
state (bitboards and limb arrays, see :mod:`engine.position`) directly, which
is why the players live inside the ``engine`` package.

The terms, each for both sides:

* **score** — points already captured, growing towards the winning 5;
* **material** — adaptoids, legs and pincers on the board;
* **sure starvation** — adaptoids of the side that just moved with fewer
  empty neighbours than limbs die at the end of the mover's turn;
* **threats** — what the side to move can take on its turn (an attack with
  more pincers, or filling the last free neighbour of an enemy whose empty
  neighbours equal its limbs, by creating there or moving there), and what
  the opponent will threaten afterwards (counted more weakly: the mover can
  parry one threat, rarely two);
* **mobility** — cells the adaptoids can reach, room to create;
* **starvation risk** — adaptoids with no spare empty neighbour.

>>> from engine import Position
>>> evaluate(Position.standard())
0
>>> evaluate(Position.from_string("D2W00,D6B00 w 2-0")) > 1500
True
>>> position_key(Position.standard()) == position_key(Position("D2W00,D6B00 w 0-0"))
True
"""

from __future__ import annotations

from collections.abc import Callable

from engine.position import Position

__all__ = ["SCORE_VALUE", "WIN", "evaluate", "position_key"]

#: the value of a won game (a forced win found by search is ``WIN - plies``)
WIN = 1_000_000

#: the value of having scored 0..5 points (convex: the last points matter most)
SCORE_VALUE = (0, 1000, 2100, 3300, 4600, WIN)

ADAPTOID = 120
LEG = 45
PINCER = 55
SURE_GAIN = 900
THREAT_GAIN = 650
EXTRA_THREAT = 250
NEAR_WIN = 2500
ENEMY_THREAT_FIRST = 120
ENEMY_THREAT_MORE = 450
NO_SLACK = 35
MOBILITY = 6
ROOM = 4


def position_key(pos: Position) -> int:
    """A hash of everything that defines the position (pieces, side, scores).

    Two positions that compare equal have the same key. It is built from the
    engine's internal state (``Position._key``), so it costs about a
    microsecond; the search uses it for its transposition table.
    """
    return hash(pos._key())


def evaluate(pos: Position) -> int:
    """The value of ``pos`` for the side to move (positive: better for it).

    The game must not be over (the search checks that first).
    """
    s = pos._side
    o = s ^ 1
    occ = pos._occ
    me = occ[s]
    op = occ[o]
    board = pos.board
    nbm = board.neighbour_masks
    dilate = board.dilate
    empty = board.mask & ~(me | op)
    legs = pos._legs
    pins = pos._pins
    score = pos._score

    value = SCORE_VALUE[min(score[s], 5)] - SCORE_VALUE[min(score[o], 5)]
    value += ADAPTOID * (me.bit_count() - op.bit_count())
    value += LEG * (pos._nl[s] - pos._nl[o]) + PINCER * (pos._np[s] - pos._np[o])

    # the opponent's adaptoids: sure starvation (they die at the end of my
    # turn, so they threaten nothing), or one filled cell away from it
    sure = 0
    doomed = 0
    no_slack: list[int] = []
    m = op
    while m:
        low = m & -m
        m ^= low
        i = low.bit_length() - 1
        limbs = legs[i] + pins[i]
        if not limbs:
            continue
        free = nbm[i] & empty
        n = free.bit_count()
        if n < limbs:
            sure += 1
            doomed |= low
            value += ADAPTOID + LEG * legs[i] + PINCER * pins[i]
        elif n == limbs:
            no_slack.append(free)

    # movement: reach of every adaptoid with legs, and who can attack whom
    my_reach, my_clean, my_trade = _attacks(me, op, empty, legs, pins, nbm, dilate)
    op_reach, op_clean, op_trade = _attacks(op & ~doomed, me, empty, legs, pins, nbm, dilate)
    my_clean &= ~doomed
    my_trade &= ~doomed
    value += MOBILITY * (my_reach.bit_count() - op_reach.bit_count())
    my_room = dilate(me) & empty
    op_room = dilate(op & ~doomed) & empty
    value += ROOM * (my_room.bit_count() - op_room.bit_count())
    my_fill = my_room | my_reach
    starvable = 0
    for free in no_slack:
        value += NO_SLACK
        if free & my_fill:
            starvable += 1

    # my adaptoids (never below slack 0: the opponent's turn just starved those)
    op_fill = op_room | op_reach
    threatened = op_clean
    m = me
    while m:
        low = m & -m
        m ^= low
        i = low.bit_length() - 1
        limbs = legs[i] + pins[i]
        if not limbs:
            continue
        free = nbm[i] & empty
        if free.bit_count() <= limbs:
            value -= NO_SLACK
            if free & op_fill:
                threatened |= low

    # what I take this turn (one move and one action: count the best two)
    attack = 1 if my_clean else 0
    best = max(attack, 1 if starvable else 0)
    extra = attack + starvable - best
    gain = sure + best
    value += SURE_GAIN * sure + THREAT_GAIN * best + EXTRA_THREAT * min(extra, 2)
    if score[s] + gain >= 5 or (my_trade and score[s] + sure + 1 >= 5):
        value += NEAR_WIN
    # what the opponent threatens after my turn
    n = threatened.bit_count()
    if n:
        value -= ENEMY_THREAT_FIRST + ENEMY_THREAT_MORE * (n - 1)
        if score[o] + 1 >= 5:
            value -= ENEMY_THREAT_FIRST
    elif op_trade and score[o] + 1 >= 5:
        value -= ENEMY_THREAT_FIRST
    return value


def _attacks(
    own: int,
    enemy: int,
    empty: int,
    legs: list[int],
    pins: list[int],
    nbm: list[int],
    dilate: Callable[[int], int],
) -> tuple[int, int, int]:
    """``(reachable empty cells, enemies capturable cleanly, enemies tradable)`` of a side."""
    reach_all = 0
    clean = 0
    trade = 0
    m = own
    while m:
        low = m & -m
        m ^= low
        i = low.bit_length() - 1
        lg = legs[i]
        if not lg:
            continue
        d = nbm[i]  # the cells next to the adaptoid: all it reaches with one leg
        if lg > 1:
            reach = low | (d & empty)
            for _ in range(lg - 2):
                grown = reach | (dilate(reach) & empty)
                if grown == reach:
                    break
                reach = grown
            d = dilate(reach)
        reach_all |= d & empty
        pc = pins[i]
        if pc:
            t = d & enemy
            while t:
                lt = t & -t
                t ^= lt
                ep = pins[lt.bit_length() - 1]
                if ep < pc:
                    clean |= lt
                elif ep == pc:
                    trade |= lt
    return reach_all, clean, trade
