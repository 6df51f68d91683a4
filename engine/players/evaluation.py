"""Static evaluation of a position for the computer players.

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
from typing import NamedTuple

from engine.position import Position

__all__ = [
    "FEATURES",
    "FITTED_WEIGHTS",
    "HAND_WEIGHTS",
    "SCORE_VALUE",
    "WEIGHTS",
    "WIN",
    "Weights",
    "evaluate",
    "features",
    "make_evaluate",
    "position_key",
]

#: the value of a won game (a forced win found by search is ``WIN - plies``)
WIN = 1_000_000


class Weights(NamedTuple):
    """The weight of each term of the evaluation (:data:`FEATURES`, in this order).

    :func:`evaluate` is ``make_evaluate(WEIGHTS)``; :func:`features` gives
    the terms' values, so that ``evaluate(pos) == sum(w * f for w, f in
    zip(WEIGHTS, features(pos)))`` for any weights (tested). The weights are
    data so that they can be fitted to game results (``bench/eval_fit.py``).
    """

    #: reaching 1, 2, 3, 4 points (the mover's minus the opponent's)
    score1: int = 1000
    score2: int = 1100
    score3: int = 1200
    score4: int = 1300
    #: adaptoids, legs and pincers on the board (mover's minus opponent's)
    adaptoid: int = 120
    leg: int = 45
    pincer: int = 55
    #: per enemy adaptoid that surely starves at the end of the mover's turn
    #: (its point and its adaptoid), and its legs and pincers
    sure: int = 1020
    doomed_leg: int = 45
    doomed_pin: int = 55
    #: reachable empty cells, empty cells next to the adaptoids (room to create)
    mobility: int = 6
    room: int = 4
    #: enemy adaptoids, and the mover's, with no spare empty neighbour
    enemy_no_slack: int = 35
    own_no_slack: int = -35
    #: the mover's best threat (0 or 1), its extra threats (0-2), and a threat
    #: (or a trade) that reaches 5 points
    threat: int = 650
    extra_threat: int = 250
    near_win: int = 2500
    #: the opponent threatens something after the mover's turn (0 or 1), the
    #: number of further threats, and a threat or trade of its that reaches 5
    enemy_threat: int = -120
    enemy_more: int = -450
    enemy_near_win: int = -120
    #: adaptoids without legs (they cannot move), the mover's minus the
    #: opponent's not surely starving
    legless: int = 0


#: the names of the terms, in the order of :class:`Weights` and :func:`features`
FEATURES: tuple[str, ...] = Weights._fields

#: the hand-set weights of ``search-v1``'s evaluation (``evaluation_v1.py``
#: computes the same values, less the ``legless`` term it lacks)
HAND_WEIGHTS = Weights()

#: the weights fitted to the results of 627 self-play games (about 28,000
#: positions) by ``bench/eval_fit.py fit --from hand`` (docs/players.md,
#: "The evaluation"): a capture threat is worth less than the hand-set weights
#: said, room to create (empty cells next to one's adaptoids) much more, an
#: adaptoid without legs is a liability
FITTED_WEIGHTS = Weights(
    score1=1011,
    score2=948,
    score3=1309,
    score4=1719,
    adaptoid=291,
    leg=-71,
    pincer=24,
    sure=1061,
    doomed_leg=-4,
    doomed_pin=55,
    mobility=3,
    room=100,
    enemy_no_slack=73,
    own_no_slack=-118,
    threat=306,
    extra_threat=263,
    near_win=2417,
    enemy_threat=-73,
    enemy_more=-91,
    enemy_near_win=-334,
    legless=-370,
)

#: the weights of :func:`evaluate`
WEIGHTS = FITTED_WEIGHTS


def position_key(pos: Position) -> int:
    """A hash of everything that defines the position (pieces, side, scores).

    Two positions that compare equal have the same key. It is built from the
    engine's internal state (``Position._key``), so it costs about a
    microsecond; the search uses it for its transposition table.
    """
    return hash(pos._key())


def make_evaluate(w: Weights) -> Callable[[Position], int]:
    """An evaluation function with the weights ``w`` (see :func:`evaluate`).

    The weights become local constants of the closure: the search calls it
    at every leaf, so it must cost no more than hard-coded numbers.
    """
    score_value = _score_values(w)
    adaptoid, leg, pincer = w.adaptoid, w.leg, w.pincer
    sure_gain, doomed_leg, doomed_pin = w.sure, w.doomed_leg, w.doomed_pin
    mobility, room = w.mobility, w.room
    enemy_no_slack, own_no_slack = w.enemy_no_slack, w.own_no_slack
    threat_gain, extra_threat, near_win = w.threat, w.extra_threat, w.near_win
    enemy_threat, enemy_more, enemy_near_win = w.enemy_threat, w.enemy_more, w.enemy_near_win
    legless = w.legless

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

        value = score_value[min(score[s], 5)] - score_value[min(score[o], 5)]
        value += adaptoid * (me.bit_count() - op.bit_count())
        value += leg * (pos._nl[s] - pos._nl[o]) + pincer * (pos._np[s] - pos._np[o])

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
                value += doomed_leg * legs[i] + doomed_pin * pins[i]
            elif n == limbs:
                no_slack.append(free)

        # movement: reach of every adaptoid with legs, and who can attack whom
        my_reach, my_clean, my_trade, my_stuck = _attacks(me, op, empty, legs, pins, nbm, dilate)
        op_reach, op_clean, op_trade, op_stuck = _attacks(
            op & ~doomed, me, empty, legs, pins, nbm, dilate
        )
        my_clean &= ~doomed
        my_trade &= ~doomed
        value += mobility * (my_reach.bit_count() - op_reach.bit_count())
        my_room = dilate(me) & empty
        op_room = dilate(op & ~doomed) & empty
        value += room * (my_room.bit_count() - op_room.bit_count())
        my_fill = my_room | my_reach
        starvable = 0
        for free in no_slack:
            value += enemy_no_slack
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
                value += own_no_slack
                if free & op_fill:
                    threatened |= low

        # what I take this turn (one move and one action: count the best two)
        attack = 1 if my_clean else 0
        best = max(attack, 1 if starvable else 0)
        extra = attack + starvable - best
        gain = sure + best
        value += sure_gain * sure + threat_gain * best + extra_threat * min(extra, 2)
        if score[s] + gain >= 5 or (my_trade and score[s] + sure + 1 >= 5):
            value += near_win
        # what the opponent threatens after my turn
        n = threatened.bit_count()
        if n:
            value += enemy_threat + enemy_more * (n - 1)
            if score[o] + 1 >= 5:
                value += enemy_near_win
        elif op_trade and score[o] + 1 >= 5:
            value += enemy_near_win
        return value + legless * (my_stuck - op_stuck)

    return evaluate


def features(pos: Position) -> list[int]:
    """The values of the terms of the evaluation of ``pos`` (not over), in
    the order of :data:`FEATURES`, from the side to move's point of view.

    The same computation as :func:`evaluate`, counting instead of weighting:
    ``evaluate(pos) == sum(w * f for w, f in zip(WEIGHTS, features(pos)))``.
    Not used in play (it is slower); for fitting the weights.
    """
    s = pos._side
    o = s ^ 1
    me = pos._occ[s]
    op = pos._occ[o]
    board = pos.board
    nbm = board.neighbour_masks
    dilate = board.dilate
    empty = board.mask & ~(me | op)
    legs = pos._legs
    pins = pos._pins
    score = pos._score
    f = dict.fromkeys(FEATURES, 0)
    for k in (1, 2, 3, 4):
        f[f"score{k}"] = (score[s] >= k) - (score[o] >= k)
    f["adaptoid"] = me.bit_count() - op.bit_count()
    f["leg"] = pos._nl[s] - pos._nl[o]
    f["pincer"] = pos._np[s] - pos._np[o]
    doomed = 0
    no_slack: list[int] = []
    for i in board.bits(op):
        limbs = legs[i] + pins[i]
        if not limbs:
            continue
        free = nbm[i] & empty
        if free.bit_count() < limbs:
            f["sure"] += 1
            f["doomed_leg"] += legs[i]
            f["doomed_pin"] += pins[i]
            doomed |= 1 << i
        elif free.bit_count() == limbs:
            no_slack.append(free)
    my_reach, my_clean, my_trade, my_stuck = _attacks(me, op, empty, legs, pins, nbm, dilate)
    op_reach, op_clean, op_trade, op_stuck = _attacks(
        op & ~doomed, me, empty, legs, pins, nbm, dilate
    )
    my_clean &= ~doomed
    my_trade &= ~doomed
    f["mobility"] = my_reach.bit_count() - op_reach.bit_count()
    my_room = dilate(me) & empty
    op_room = dilate(op & ~doomed) & empty
    f["room"] = my_room.bit_count() - op_room.bit_count()
    f["enemy_no_slack"] = len(no_slack)
    starvable = sum(1 for free in no_slack if free & (my_room | my_reach))
    op_fill = op_room | op_reach
    threatened = op_clean
    for i in board.bits(me):
        limbs = legs[i] + pins[i]
        free = nbm[i] & empty
        if limbs and free.bit_count() <= limbs:
            f["own_no_slack"] += 1
            if free & op_fill:
                threatened |= 1 << i
    attack = 1 if my_clean else 0
    best = max(attack, 1 if starvable else 0)
    f["threat"] = best
    f["extra_threat"] = min(attack + starvable - best, 2)
    gain = f["sure"] + best
    f["near_win"] = int(score[s] + gain >= 5 or bool(my_trade and score[s] + f["sure"] + 1 >= 5))
    n = threatened.bit_count()
    f["enemy_threat"] = 1 if n else 0
    f["enemy_more"] = max(n - 1, 0)
    f["enemy_near_win"] = int(score[o] + 1 >= 5 and bool(n or op_trade))
    f["legless"] = my_stuck - op_stuck
    return [f[name] for name in FEATURES]


def _score_values(w: Weights) -> tuple[int, ...]:
    """The value of having scored 0..5 points with the weights ``w``."""
    return (
        0,
        w.score1,
        w.score1 + w.score2,
        w.score1 + w.score2 + w.score3,
        w.score1 + w.score2 + w.score3 + w.score4,
        WIN,
    )


#: the value of having scored 0..5 points (convex: the last points matter most)
SCORE_VALUE = _score_values(WEIGHTS)

evaluate = make_evaluate(WEIGHTS)


def _attacks(
    own: int,
    enemy: int,
    empty: int,
    legs: list[int],
    pins: list[int],
    nbm: list[int],
    dilate: Callable[[int], int],
) -> tuple[int, int, int, int]:
    """``(reachable empty cells, enemies capturable cleanly, enemies tradable,
    adaptoids without legs)`` of a side."""
    reach_all = 0
    stuck = 0
    clean = 0
    trade = 0
    m = own
    while m:
        low = m & -m
        m ^= low
        i = low.bit_length() - 1
        lg = legs[i]
        if not lg:
            stuck += 1
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
    return reach_all, clean, trade, stuck
