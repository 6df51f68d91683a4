"""Fit the weights of the evaluation to game results (Texel-style; not a test).

Run from the repository root:

    python bench/eval_fit.py collect OUT.jsonl [--first 0] [--games 300] [--nodes 1000] [--from hand]
    python bench/eval_fit.py fit OUT.jsonl [MORE.jsonl ...] [--lam 0.001] [--root] [--from hand]

``collect`` plays seeded self-play games (the search with the current
:data:`~engine.players.evaluation.WEIGHTS`, or ``HAND_WEIGHTS`` with
``--from hand``) and appends one JSON line per game
to OUT: game ``g`` (``first <= g < first + games``) starts with 4 random turns
drawn from ``random.Random(100_000 + g)`` (so they are not the openings of a
``play_match`` seed), then two ``SearchPlayer("search", seed=2g+c,
max_nodes=NODES)`` play it out (at most 300 plies; unfinished is a draw).
Every searched position with a value that is not a forced result is stored
as the position and the leaf of its principal variation (the position whose
evaluation the search's value comes from: the "quiet" position of Texel
tuning), with the game's result for White. Two ``collect`` runs with
different ``--first`` can run side by side and be fitted together.

``fit`` takes the leaf of every stored position (``--root``: the position
itself), its :func:`~engine.players.evaluation.features` and the game's
result for the side to move there (1, 1/2 or 0), and fits ``P(result) = 1 /
(1 + exp(-w . f / K))``: first the scale K with the current
:data:`~engine.players.evaluation.WEIGHTS` (golden-section search on the mean
log loss), then the weights w at that K by Newton's method on the mean log
loss plus ``lam * sum(((w - WEIGHTS) / K) ** 2)`` (a pull towards the current
weights, so that correlated terms stay near them). Games with ``g % 5 == 0``
are held out. It prints the log losses (fitting set and held-out, current
and fitted weights), each weight with its standard error (which treats the
positions as independent, so it is too small: the positions of one game are
not) and the fitted ``Weights(...)``. Fixing K keeps the evaluation's unit
(about 1000 a capture), which the search's margins and
:data:`engine.analysis.EXPECTED_SCALE` assume. ``--from hand`` starts from
(and pulls towards) :data:`~engine.players.evaluation.HAND_WEIGHTS` instead
of the current weights: the fit that gave ``FITTED_WEIGHTS``.

Pure Python (about a minute per 10,000 positions); docs/players.md has the runs
("The evaluation") and the matches that tested the result ("Strength").
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Position
from engine.players import search as search_module
from engine.players.evaluation import (
    FEATURES,
    HAND_WEIGHTS,
    WEIGHTS,
    WIN,
    Weights,
    features,
    make_evaluate,
)
from engine.players.search import SearchPlayer

HELD_OUT = 5  # every fifth game


def collect(out: str, first: int, games: int, nodes: int, weights: Weights) -> None:
    # the players' evaluation (the search module's; search-v1 is not used)
    search_module.evaluate = make_evaluate(weights)
    with open(out, "a", encoding="utf-8") as fh:
        for game in range(first, first + games):
            rng = random.Random(100_000 + game)
            pos = Position.standard()
            for _ in range(4):
                pos.push(pos.random_turn(rng))
            players = [SearchPlayer("search", seed=2 * game + c, max_nodes=nodes) for c in (0, 1)]
            rows: list[tuple[str, str | None, int]] = []
            while pos.outcome() is None and pos.ply < 300:
                player = players[pos.side_to_move.index]
                raw = player.search(pos, math.inf)
                value = int(player.info["value"])
                if abs(value) < WIN - 1000:  # not a forced result
                    line = player.principal_variation(pos, raw, max(int(player.info["depth"]), 1))
                    for r in line:
                        pos._push_raw(r)
                    over = pos._state_outcome() is not None or pos.is_repetition(2)
                    leaf = None if over else pos.to_string()
                    for _ in line:
                        pos._pop_raw()
                    rows.append((pos.to_string(), leaf, value))
                pos._push_raw(raw)
            outcome = pos.outcome()
            result = (
                0.5 if outcome is None or outcome.winner is None else 1.0 - outcome.winner.index
            )
            fh.write(json.dumps({"game": game, "result": result, "rows": rows}) + "\n")
            fh.flush()
            print(f"game {game}: {result}, {len(rows)} positions", file=sys.stderr, flush=True)


def load(files: list[str], root: bool) -> tuple[list[list[int]], list[float], list[bool]]:
    xs: list[list[int]] = []
    ys: list[float] = []
    held: list[bool] = []
    for name in files:
        with open(name, encoding="utf-8") as fh:
            for line in fh:
                game = json.loads(line)
                for row in game["rows"]:  # (position, leaf or None, value)
                    text, leaf = row[0], row[1]
                    pos = Position(text if root or not leaf else leaf)
                    if pos._state_outcome() is not None:
                        continue
                    xs.append(features(pos))
                    ys.append(game["result"] if pos._side == 0 else 1 - game["result"])
                    held.append(game["game"] % HELD_OUT == 0)
    return xs, ys, held


def _sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def log_loss(w: list[float], scale: float, xs: list[list[int]], ys: list[float]) -> float:
    total = 0.0
    for x, y in zip(xs, ys, strict=True):
        p = min(
            max(_sigmoid(sum(a * b for a, b in zip(w, x, strict=True)) / scale), 1e-9), 1 - 1e-9
        )
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(ys)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a is positive definite here)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    out = [0.0] * n
    for r in range(n - 1, -1, -1):
        out[r] = (m[r][n] - sum(m[r][k] * out[k] for k in range(r + 1, n))) / m[r][r]
    return out


def _inverse_diagonal(a: list[list[float]]) -> list[float]:
    n = len(a)
    return [_solve(a, [1.0 if i == j else 0.0 for i in range(n)])[j] for j in range(n)]


def fit(files: list[str], lam: float, root: bool, start: Weights) -> None:
    xs, ys, held = load(files, root)
    fx = [x for x, h in zip(xs, held, strict=True) if not h]
    fy = [y for y, h in zip(ys, held, strict=True) if not h]
    hx = [x for x, h in zip(xs, held, strict=True) if h]
    hy = [y for y, h in zip(ys, held, strict=True) if h]
    print(f"{len(ys)} positions, {len(hy)} held out", flush=True)
    w0 = [float(v) for v in start]
    low, high = 50.0, 20_000.0
    for _ in range(60):  # golden-section search on a unimodal loss
        a = high - (high - low) / 1.618
        b = low + (high - low) / 1.618
        if log_loss(w0, a, fx, fy) < log_loss(w0, b, fx, fy):
            high = b
        else:
            low = a
    scale = (low + high) / 2
    print(
        f"K {scale:.0f}; starting weights: log loss {log_loss(w0, scale, fx, fy):.4f}, "
        f"held-out {log_loss(w0, scale, hx, hy):.4f}",
        flush=True,
    )
    n = len(FEATURES)
    b0 = [v / scale for v in w0]
    beta = b0[:]
    hess: list[list[float]] = []
    for _ in range(30):
        grad = [2 * lam * (beta[k] - b0[k]) for k in range(n)]
        hess = [[2 * lam if i == j else 0.0 for j in range(n)] for i in range(n)]
        inv = 1 / len(fy)
        for x, y in zip(fx, fy, strict=True):
            p = _sigmoid(sum(a * b for a, b in zip(beta, x, strict=True)))
            g = (p - y) * inv
            h = p * (1 - p) * inv
            nz = [(k, v) for k, v in enumerate(x) if v]
            for i, vi in nz:
                grad[i] += g * vi
                row = hess[i]
                hv = h * vi
                for j, vj in nz:
                    row[j] += hv * vj
        step = _solve(hess, grad)
        beta = [b - s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    w = [b * scale for b in beta]
    print(
        f"fitted: log loss {log_loss(w, scale, fx, fy):.4f}, "
        f"held-out {log_loss(w, scale, hx, hy):.4f}"
    )
    errors = [math.sqrt(max(v, 0.0) / len(fy)) * scale for v in _inverse_diagonal(hess)]
    for name, old, new, err in zip(FEATURES, w0, w, errors, strict=True):
        print(f"  {name:15} {old:7.0f} -> {new:7.0f}  (± {err:.0f})")
    print("Weights(" + ", ".join(f"{k}={round(v)}" for k, v in zip(FEATURES, w, strict=True)) + ")")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    # Both commands start from the current or the hand-set weights.
    weights = argparse.ArgumentParser(add_help=False)
    weights.add_argument(
        "--from",
        dest="start",
        choices=("current", "hand"),
        default="current",
        help="the weights (collect: the players'; fit: to start from and pull towards): "
        "WEIGHTS or HAND_WEIGHTS",
    )
    c = sub.add_parser(
        "collect", parents=[weights], help="play self-play games, append positions to OUT"
    )
    c.add_argument("out")
    c.add_argument("--first", type=int, default=0, help="number of the first game")
    c.add_argument("--games", type=int, default=300)
    c.add_argument("--nodes", type=int, default=1000, help="search nodes per turn")
    f = sub.add_parser("fit", parents=[weights], help="fit the weights to the collected games")
    f.add_argument("files", nargs="+")
    f.add_argument("--lam", type=float, default=1e-3, help="pull towards the current weights")
    f.add_argument("--root", action="store_true", help="the searched positions, not the leaves")
    args = parser.parse_args()
    if args.command == "collect":
        start = HAND_WEIGHTS if args.start == "hand" else WEIGHTS
        collect(args.out, args.first, args.games, args.nodes, start)
    else:
        fit(args.files, args.lam, args.root, HAND_WEIGHTS if args.start == "hand" else WEIGHTS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
