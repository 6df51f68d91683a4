"""The searching player: alpha-beta over full turns with iterative deepening.

* negamax with principal-variation search (null windows after the first turn);
* iterative deepening: depth 1, 2, 3... until the time (or ``max_nodes``)
  runs out; the best turn of the deepest iteration is kept, and of an
  interrupted iteration only the root turns it finished (the previous best is
  searched first, so a turn that beat it is a real improvement);
* a transposition table keyed on :func:`~engine.players.evaluation.position_key`
  (best turn and bounds), reused across the turns of one game;
* staged move ordering: the table's turn and the two killer turns of the ply
  are tried first, checked legal by :func:`_is_legal` without generating the
  other turns (they cut off most of the time, and generating and ordering a
  few hundred turns costs as much as searching a dozen); then all the turns,
  ordered by clean captures, trades, turns that starve an enemy, killers and
  a history table;
* leaves are scored by :func:`~engine.players.evaluation.evaluate`, which
  already counts the threats of the side to move and of its opponent (values
  cached by position key: the same position is reached by turns in another
  order); the frontier (one turn from the leaves) scores its children inline;
* late move reductions (``lmr=True``, the one pruning on by default): at 2 or
  more turns from the leaves, the quiet turns after the first 4 are searched
  one turn shallower with a null window first, and again at full depth only
  if that beats alpha. At a fixed depth of 3 it plays as well as the search
  without it (12-12 against ``search-v1``) and it reaches depth 4 about 8
  times faster than ``search-v1`` (docs/players.md, "Strength" and "Speed");
* a repeated position inside the search is scored as a draw.

Tuning knobs, off by default because they cost more strength than their speed
buys (docs/players.md, "Strength": at a fixed depth of 3 the old defaults ``futility=(400,),
lmp=15`` lost 1-23 to ``search-v1``): ``futility`` (margins by depth from the
leaves: a null-window node whose static value plus the margin cannot reach
alpha is not expanded), ``lmp`` (late move pruning: a null-window node one turn
from the leaves scores every capture and starving turn but only the first
``lmp`` quiet turns), ``rfp`` (reverse futility: a null-window node whose
static value minus the margin of its depth is at least beta returns) and
``null_move`` (null-move pruning with that reduction, at depth 3 or more).

The clock is read at every node and after every leaf; the search stops at the
planned share of the budget (:data:`~engine.players.base.SAFETY`) and
unwinds at once. With ``max_nodes`` and no deadline the search is
deterministic (:mod:`engine.analysis` relies on it).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from engine.players.base import Player
from engine.players.evaluation import WIN, evaluate
from engine.position import Position, RawTurn

__all__ = ["SearchPlayer"]

_EXACT, _LOWER, _UPPER = 0, 1, 2
_INF = 2 * WIN
_WON = WIN - 1000  # values beyond this are forced wins (WIN minus the plies to play)
_TT_LIMIT = 200_000

#: the null move of null-move pruning (not a legal turn when an action exists)
_NULL: RawTurn = (-1, -1, False, -1, 0)


class _Timeout(Exception):
    pass


class SearchPlayer(Player):
    """Alpha-beta search with a time budget, optionally capped at ``max_depth``
    turns or ``max_nodes`` positions (see the module docstring for the rest).

    With a depth or node cap and a generous budget the choice is deterministic.

    >>> from engine.players import get_player
    >>> pos = Position.from_string("C3W11,D4B00,F7B00,G7B00 w 4-0")
    >>> player = get_player("search", seed=0)
    >>> str(player.choose(pos, seconds=1)), player.info["value"] > 0
    ('C3xD4', True)
    """

    def __init__(
        self,
        name: str,
        *,
        seed: int | None = None,
        max_depth: int | None = None,
        max_nodes: int | None = None,
        rfp: tuple[int, ...] = (),
        futility: tuple[int, ...] = (),
        null_move: int = 0,
        killers_first: bool = True,
        lmp: int = 0,
        lmr: bool = True,
    ) -> None:
        super().__init__(name, seed=seed)
        self.killers_first = killers_first
        self.lmp = lmp
        self.lmr = lmr
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.rfp = rfp
        self.futility = futility
        self.null_move = null_move
        self._node_limit = 1 << 62
        self.tt: dict[int, tuple[int, int, int, RawTurn | None]] = {}
        self.evals: dict[int, int] = {}
        self.killers: dict[int, list[RawTurn]] = {}
        self.history: dict[RawTurn, int] = {}
        self.nodes = 0
        self._deadline = 0.0
        self._pos = Position()

    # -- the root -------------------------------------------------------------

    def _choose_raw(self, pos: Position, deadline: float) -> RawTurn:
        turns = pos._raw_turns()
        if len(turns) == 1:
            self.info.update(depth=0, nodes=0, value=0, turns=1)
            return turns[0]
        return self.search(pos, deadline)

    def search(self, pos: Position, deadline: float) -> RawTurn:
        """The best raw turn of ``pos`` (not over) found by ``deadline``
        (a :func:`time.perf_counter` time) or within ``max_nodes``; fills :attr:`info`.

        The position is searched even when it has a single turn (for its value).
        Between calls the player keeps its tables (as during a game).
        """
        self._pos = pos
        self._deadline = deadline
        self.nodes = 0
        self._node_limit = 1 << 62  # the first iteration always completes
        self.killers = {}
        if len(self.tt) > _TT_LIMIT:
            self.tt.clear()
        if len(self.evals) > _TT_LIMIT:
            self.evals.clear()
        # history decays between turns
        self.history = {k: v >> 2 for k, v in self.history.items() if v >= 4}
        turns = pos._raw_turns()
        root_ply = pos.ply
        self.rng.shuffle(turns)  # equal turns in a random order (the sort is stable)
        order = self._order(turns, None, 0)
        best = order[0]
        best_value = -_INF
        depth = 0
        completed = 0
        previous_scores: dict[RawTurn, int] = {}
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
                if iteration_best is not None and alpha > -_WON:
                    # the previous best was searched first: this turn is at
                    # least as good at the deeper depth as everything finished
                    best, best_value = iteration_best, alpha
                elif iteration_best is not None:
                    # every turn finished at this depth is proven lost: the
                    # best of the previous depth not yet refuted is played
                    # (with its value there) rather than a known loss
                    best = order[len(scores)]
                    best_value = previous_scores.get(best, best_value)
                break
            assert iteration_best is not None
            best, best_value = iteration_best, alpha
            completed = depth
            self._node_limit = self.max_nodes or 1 << 62
            order.sort(key=lambda raw: -scores.get(raw, -_INF))
            previous_scores = scores
            if abs(best_value) >= _WON:
                break  # a forced result: deeper search will not change it
            if time.perf_counter() > deadline:
                break
        self.info.update(depth=completed, nodes=self.nodes, value=best_value, turns=len(turns))
        return best

    def principal_variation(self, pos: Position, first: RawTurn, length: int) -> list[RawTurn]:
        """``first`` and the expected replies after it, from the table, at most
        ``length`` turns (shorter where the table has no turn or the game ends)."""
        line = [first]
        pushed = 0
        try:
            pos._push_raw(first)
            pushed = 1
            while len(line) < length and pos._state_outcome() is None:
                if pos.is_repetition(3):
                    break
                entry = self.tt.get(hash(pos._key()))
                if entry is None or entry[3] is None or entry[3] not in pos._raw_turns():
                    break
                line.append(entry[3])
                pos._push_raw(entry[3])
                pushed += 1
        finally:
            for _ in range(pushed):
                pos._pop_raw()
        return line

    # -- the tree -------------------------------------------------------------

    def _search(self, depth: int, alpha: int, beta: int, ply: int, null_ok: bool = True) -> int:
        self.nodes += 1
        if self.nodes >= self._node_limit or time.perf_counter() > self._deadline:
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
        evals = self.evals
        if depth <= 0:
            value = evals.get(key)
            if value is None:
                value = evals[key] = evaluate(pos)
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
        if beta - alpha == 1 and abs(beta) < _WON:
            # a null window away from the principal variation: static pruning
            static = evals.get(key)
            if static is None:
                static = evals[key] = evaluate(pos)
            rfp = self.rfp
            if depth <= len(rfp) and static - rfp[depth - 1] >= beta:
                return static - rfp[depth - 1]
            fut = self.futility
            if depth <= len(fut) and static + fut[depth - 1] <= alpha:
                return static + fut[depth - 1]
            if self.null_move and null_ok and depth >= 3 and static >= beta:
                pos._push_raw(_NULL)
                try:
                    value = -self._search(
                        depth - 1 - self.null_move, -beta, -beta + 1, ply + 1, False
                    )
                finally:
                    pos._pop_raw()
                if value >= beta:
                    return value if value < _WON else beta
        # the table's turn and the killers first, before generating the others:
        # they often cut off at once, and generating and ordering a few
        # hundred turns costs as much as searching a dozen
        first: list[RawTurn] = []
        if tt_move is not None and _is_legal(pos, tt_move):
            first.append(tt_move)
        for killer in self.killers.get(ply, ()) if self.killers_first else ():
            if killer != tt_move and _is_legal(pos, killer):
                first.append(killer)
        turns = self._staged(first, ply)
        alpha0 = alpha
        best = -_INF
        best_raw: RawTurn | None = None
        push = pos._push_raw
        pop = pos._pop_raw
        search = self._search
        if depth == 1:
            # the frontier: the children are leaves, scored here without a
            # call (a leaf's value is exact, so no null window is needed)
            evals = self.evals
            clock = time.perf_counter
            deadline = self._deadline
            score = pos._score
            occ = pos._occ
            stack = pos._stack
            # late move pruning: off the principal variation, only the first
            # ``lmp`` quiet turns (in move order) are scored, every capture
            # and starving turn is
            lmp = self.lmp if beta - alpha == 1 and abs(beta) < _WON else 0
            starve = _starve_cells(pos) if lmp else 0
            quiet = 0
            for raw in turns:
                if (
                    lmp
                    and not raw[2]
                    and not (raw[0] >= 0 and starve >> raw[1] & 1)
                    and not (raw[4] == 1 and starve >> raw[3] & 1)
                ):
                    quiet += 1
                    if quiet > lmp:
                        continue
                self.nodes += 1
                push(raw)
                if score[0] >= 5 or score[1] >= 5 or not occ[0] or not occ[1]:
                    outcome = pos._state_outcome()
                    assert outcome is not None and outcome.winner is not None
                    value = ply + 1 - WIN if outcome.winner.index == pos._side else WIN - ply - 1
                elif stack[-1][3] is not None and pos.is_repetition(2):
                    value = 0
                else:
                    child = hash(pos._key())
                    leaf = evals.get(child)
                    if leaf is None:
                        leaf = evals[child] = evaluate(pos)
                    value = -leaf
                pop()
                if value > best:
                    best = value
                    best_raw = raw
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            self._reward(raw, depth, ply)
                            break
                if clock() > deadline:
                    raise _Timeout
        else:
            reduce_after = 4 if self.lmr else 1 << 30
            for n, raw in enumerate(turns):
                push(raw)
                if n == 0:
                    value = -search(depth - 1, -beta, -alpha, ply + 1)
                else:
                    value = alpha + 1
                    if n >= reduce_after and not raw[2]:
                        # late move reduction: a late quiet turn is first
                        # searched a turn shallower, in full only if it looks good
                        value = -search(depth - 2, -alpha - 1, -alpha, ply + 1)
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

    def _staged(self, first: list[RawTurn], ply: int) -> Iterator[RawTurn]:
        """``first``, then the other legal turns in order (generated only if needed)."""
        yield from first
        for raw in self._order(self._pos._raw_turns(), None, ply):
            if raw not in first:
                yield raw

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
        pins = pos._pins
        starve = _starve_cells(pos)
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


def _starve_cells(pos: Position) -> int:
    """The empty cells that starve an enemy adaptoid of the side to move when filled."""
    s = pos._side
    own = pos._occ[s]
    enemy = pos._occ[s ^ 1]
    board = pos.board
    nbm = board.neighbour_masks
    empty = board.mask & ~(own | enemy)
    legs = pos._legs
    pins = pos._pins
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
    return starve


def _is_legal(pos: Position, raw: RawTurn) -> bool:
    """Whether a raw turn (from another position: the table, a killer) is legal in ``pos``."""
    frm, to, attack, cell, kind = raw
    s = pos._side
    own = pos._occ[s]
    enemy = pos._occ[s ^ 1]
    board = pos.board
    if frm >= 0:
        if not own >> frm & 1:
            return False
        dests, _enemies, attackable = pos._targets(frm, board.mask & ~(own | enemy), enemy)
        if not (attackable if attack else dests) >> to & 1:
            return False
    over, own2, empty2, under6, may_create, may_leg, may_pincer = pos._after_move(frm, to)
    if over:
        return kind == 0
    if kind == 1:
        return may_create and bool(empty2 >> cell & 1 and board.neighbour_masks[cell] & own2)
    if kind == 2:
        return may_leg and cell in under6
    if kind == 3:
        return may_pincer and cell in under6
    # no action: legal only when none exists
    return not (may_create and board.dilate(own2) & empty2) and not (
        under6 and (may_leg or may_pincer)
    )
