"""The frozen ``search-v1`` player: the ``search`` player as it was at commit
4d4b7f8 (never change it: it is the baseline of every claim that a later
``search`` is stronger). Only the names changed: the class is
:class:`SearchV1Player` and it scores leaves with
:func:`engine.players.evaluation_v1.evaluate`.

The original docstring follows.

The searching player: alpha-beta over full turns with iterative deepening.

* negamax with principal-variation search (null windows after the first turn);
* iterative deepening: depth 1, 2, 3... until the time runs out; the best turn
  of the deepest iteration is kept, and of an interrupted iteration only the
  root turns it finished (the previous best is searched first, so a turn that
  beat it is a real improvement);
* a transposition table keyed on :func:`~engine.players.evaluation.position_key`
  (best turn and bounds), reused across the turns of one game;
* move ordering: the table's turn, clean captures, trades, turns that starve
  an enemy, killer turns (two per ply) and a history table;
* leaves are scored by :func:`~engine.players.evaluation.evaluate`, which
  already counts the threats of the side to move and of its opponent (values
  cached by position key: the same position is reached by turns in another order);
* optional late move reductions (``reductions=True``, off in the named
  players: in short matches at 0.15-0.3 s per turn they scored 18/42 against
  the same search without them): at depth 3 or more, quiet turns ordered
  after the first few are searched one turn shallower first, and again in
  full only if they look better than the best so far;
* a repeated position inside the search is scored as a draw.

The clock is read at every node; the search stops at the planned share of the
budget (:data:`~engine.players.base.SAFETY`) and unwinds at once.
"""

from __future__ import annotations

import time

from engine.players.base import Player
from engine.players.evaluation_v1 import WIN, evaluate
from engine.position import Position, RawTurn

__all__ = ["SearchV1Player"]

_EXACT, _LOWER, _UPPER = 0, 1, 2
_INF = 2 * WIN
_WON = WIN - 1000  # values beyond this are forced wins (WIN minus the plies to play)
_TT_LIMIT = 200_000
#: late move reductions: turns after this many, at depth 3 or more, are first searched 1 shallower
_LMR_AFTER = 6


class _Timeout(Exception):
    pass


class SearchV1Player(Player):
    """Alpha-beta search with a time budget, optionally capped at ``max_depth`` turns.

    With a depth cap and a generous budget the choice is deterministic.

    >>> from engine.players import get_player
    >>> pos = Position.from_string("C3W11,D4B00,F7B00,G7B00 w 4-0")
    >>> player = get_player("search-v1", seed=0)
    >>> str(player.choose(pos, seconds=1)), player.info["value"] > 0
    ('C3xD4', True)
    """

    def __init__(
        self,
        name: str,
        *,
        seed: int | None = None,
        max_depth: int | None = None,
        reductions: bool = False,
    ) -> None:
        super().__init__(name, seed=seed)
        self.max_depth = max_depth
        self.reductions = reductions
        self.tt: dict[int, tuple[int, int, int, RawTurn | None]] = {}
        self.evals: dict[int, int] = {}
        self.killers: dict[int, list[RawTurn]] = {}
        self.history: dict[RawTurn, int] = {}
        self.nodes = 0
        self._deadline = 0.0
        self._pos = Position()

    # -- the root -------------------------------------------------------------

    def _choose_raw(self, pos: Position, deadline: float) -> RawTurn:
        self._pos = pos
        self._deadline = deadline
        self.nodes = 0
        self.killers = {}
        if len(self.tt) > _TT_LIMIT:
            self.tt.clear()
        if len(self.evals) > _TT_LIMIT:
            self.evals.clear()
        # history decays between turns
        self.history = {k: v >> 2 for k, v in self.history.items() if v >= 4}
        turns = pos._raw_turns()
        if len(turns) == 1:
            self.info.update(depth=0, nodes=0, value=0, turns=1)
            return turns[0]
        root_ply = pos.ply
        self.rng.shuffle(turns)  # equal turns in a random order (the sort is stable)
        order = self._order(turns, None, 0)
        best = order[0]
        best_value = -_INF
        depth = 0
        completed = 0
        max_depth = self.max_depth or 64
        while depth < max_depth:
            depth += 1
            scores: dict[RawTurn, int] = {}
            alpha = -_INF
            iteration_best: RawTurn | None = None
            try:
                for n, raw in enumerate(order):
                    pos._push_raw(raw)
                    if n == 0:
                        value = -self._search(depth - 1, -_INF, -alpha, 1)
                    else:
                        value = -self._search(depth - 1, -alpha - 1, -alpha, 1)
                        if value > alpha:
                            value = -self._search(depth - 1, -_INF, -alpha, 1)
                    pos._pop_raw()
                    scores[raw] = value
                    if value > alpha:
                        alpha = value
                        iteration_best = raw
            except _Timeout:
                while pos.ply > root_ply:
                    pos._pop_raw()
                if iteration_best is not None:
                    # the previous best was searched first: this turn is at
                    # least as good at the deeper depth as everything finished
                    best, best_value = iteration_best, alpha
                break
            assert iteration_best is not None
            best, best_value = iteration_best, alpha
            completed = depth
            order.sort(key=lambda raw: -scores.get(raw, -_INF))
            if abs(best_value) >= _WON:
                break  # a forced result: deeper search will not change it
            if time.perf_counter() > deadline:
                break
        self.info.update(depth=completed, nodes=self.nodes, value=best_value, turns=len(turns))
        return best

    # -- the tree -------------------------------------------------------------

    def _search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if time.perf_counter() > self._deadline:
            raise _Timeout
        pos = self._pos
        score = pos._score
        occ = pos._occ
        if score[0] >= 5 or score[1] >= 5 or not occ[0] or not occ[1]:
            outcome = pos._state_outcome()
            assert outcome is not None and outcome.winner is not None
            return WIN - ply if outcome.winner.index == pos._side else ply - WIN
        if pos._stack[-1][3] is not None and pos.is_repetition(2):
            return 0
        key = hash(pos._key())
        if depth <= 0:
            value = self.evals.get(key)
            if value is None:
                value = self.evals[key] = evaluate(pos)
            return value
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_value >= _WON:  # stored as "won in so many plies from here"
                e_value -= ply
            elif e_value <= -_WON:
                e_value += ply
            if e_depth >= depth:
                if e_flag == _EXACT:
                    return e_value
                if e_flag == _LOWER and e_value >= beta:
                    return e_value
                if e_flag == _UPPER and e_value <= alpha:
                    return e_value
        turns = self._order(pos._raw_turns(), tt_move, ply)
        alpha0 = alpha
        best = -_INF
        best_raw: RawTurn | None = None
        push = pos._push_raw
        pop = pos._pop_raw
        search = self._search
        reduce_after = _LMR_AFTER if self.reductions and depth >= 3 else len(turns)
        for n, raw in enumerate(turns):
            push(raw)
            if n == 0:
                value = -search(depth - 1, -beta, -alpha, ply + 1)
            else:
                if n >= reduce_after and not raw[2]:
                    # a late quiet turn: first a shallower look, in full only if it surprises
                    value = -search(depth - 2, -alpha - 1, -alpha, ply + 1)
                else:
                    value = alpha + 1
                if value > alpha:
                    value = -search(depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < value < beta:
                        value = -search(depth - 1, -beta, -alpha, ply + 1)
            pop()
            if value > best:
                best = value
                best_raw = raw
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._reward(raw, depth, ply)
                        break
        if best <= alpha0:
            flag = _UPPER
        elif best >= beta:
            flag = _LOWER
        else:
            flag = _EXACT
        stored = best + ply if best >= _WON else best - ply if best <= -_WON else best
        self.tt[key] = (depth, stored, flag, best_raw)
        return best

    def _reward(self, raw: RawTurn, depth: int, ply: int) -> None:
        """A turn caused a cut-off: remember it as a killer and in the history."""
        if not raw[2]:
            killers = self.killers.setdefault(ply, [])
            if raw not in killers:
                killers.insert(0, raw)
                del killers[2:]
        self.history[raw] = self.history.get(raw, 0) + depth * depth

    def _order(self, turns: list[RawTurn], tt_move: RawTurn | None, ply: int) -> list[RawTurn]:
        """Likely best turns first (see the module docstring)."""
        pos = self._pos
        s = pos._side
        enemy = pos._occ[s ^ 1]
        own = pos._occ[s]
        board = pos.board
        nbm = board.neighbour_masks
        empty = board.mask & ~(own | enemy)
        legs = pos._legs
        pins = pos._pins
        # empty cells that starve an enemy adaptoid when filled
        starve = 0
        m = enemy
        while m:
            low = m & -m
            m ^= low
            i = low.bit_length() - 1
            limbs = legs[i] + pins[i]
            if limbs:
                free = nbm[i] & empty
                if free.bit_count() == limbs:
                    starve |= free
        killers = self.killers.get(ply, ())
        history = self.history

        def key(raw: RawTurn) -> int:
            frm, to, attack, cell, kind = raw
            if raw == tt_move:
                return 10_000_000
            k = history.get(raw, 0)
            if attack:
                k += 2_000_000 if pins[frm] > pins[to] else 500_000
            elif frm >= 0 and starve >> to & 1:
                k += 800_000
            if kind == 1 and starve >> cell & 1:
                k += 900_000
            if raw in killers:
                k += 300_000
            return k

        return sorted(turns, key=key, reverse=True)
