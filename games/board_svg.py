"""The board as server-side SVG: hex cells, coordinates on the edge, countable limbs.

Pure presentation over an engine ``Position``; no Django import, so the same
drawing serves the game page, the replay, the analysis board and the SVG download.

Layout: column ``c`` (A, B, …) runs left to right, row ``r`` upwards and to the
right, flat-topped hexagons (RULES.md §1 neighbours (c±1, r), (c, r±1),
(c+1, r+1), (c−1, r−1) touch).  Every cell is a ``<g class="cell"
data-cell="D4">`` with an ``aria-label`` in words; an interactive board makes
the cells focusable buttons for the page's script.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from html import escape

from engine import Color, Piece, Position
from engine.board import parse_cell

RADIUS = 30.0
SQRT3 = math.sqrt(3.0)
# Limb slots, as angles in degrees (0 = right, counter-clockwise, y up): pincers fill
# from the top, legs from the bottom; with legs + pincers <= 6 they never share a slot.
PINCER_SLOTS = (90, 30, 150, 330, 210, 270)
LEG_SLOTS = tuple(reversed(PINCER_SLOTS))

STYLE = """
.cell polygon{fill:#e9dcc0;stroke:#7a6a4f;stroke-width:1.5}
.cell.last polygon{fill:#f3d27a;stroke:#8a5a00;stroke-width:2.5}
.cell.mark polygon{fill:#9fd39b}
.cell.grow polygon{stroke:#2e7d32;stroke-width:2.5;stroke-dasharray:4 3}
.cell.from polygon{fill:#7fb2e5}
.cell.act polygon{fill:#f2a65a}
.cell:focus{outline:none}.cell:focus polygon{stroke:#1a56a6;stroke-width:4}
.body-w{fill:#fff;stroke:#111;stroke-width:2}
.body-b{fill:#1b1b1b;stroke:#000;stroke-width:2}
.limb .edge{stroke:#111;stroke-width:5.2;fill:none;stroke-linecap:round;stroke-linejoin:round}
.limb .core{stroke-width:2.4;fill:none;stroke-linecap:round;stroke-linejoin:round}
.limb .foot-edge{fill:#111}
.w .limb .core{stroke:#fff}.w .limb .foot{fill:#fff}
.b .limb .core{stroke:#555}.b .limb .foot{fill:#555}
.count{font:700 10.5px sans-serif;text-anchor:middle;dominant-baseline:central}
.w .count{fill:#111}.b .count{fill:#fff}
.count-rule{stroke-width:.8}.w .count-rule{stroke:#111}.b .count-rule{stroke:#fff}
.coord{font:600 13px sans-serif;fill:#5b4d36;text-anchor:middle;dominant-baseline:middle}
"""
# Limbs end inside their cell: the hexagon's inner radius is (RADIUS - 1) * sqrt(3) / 2.
BODY = 12.0
LEG_END = 19.5
PINCER_END = 22.0


def _center(col: int, row: int) -> tuple[float, float]:
    return 1.5 * RADIUS * col, -SQRT3 * RADIUS * (row - col / 2.0)


def _hexagon(x: float, y: float, r: float) -> str:
    points = (
        f"{x + r * math.cos(math.radians(a)):.1f},{y - r * math.sin(math.radians(a)):.1f}"
        for a in range(0, 360, 60)
    )
    return " ".join(points)


def _limb(x: float, y: float, angle: int, kind: str) -> str:
    """A leg is a straight stick ending in a round foot; a pincer is a stick that opens
    into a two-pronged claw: different shapes, not only colours."""
    rad = math.radians(angle)
    dx, dy = math.cos(rad), -math.sin(rad)
    x1, y1 = x + (BODY - 1) * dx, y + (BODY - 1) * dy
    if kind == "leg":
        x2, y2 = x + LEG_END * dx, y + LEG_END * dy
        d = f"M{x1:.1f},{y1:.1f}L{x2:.1f},{y2:.1f}"
        return (
            f'<g class="limb leg"><path class="edge" d="{d}"/><circle class="foot-edge" '
            f'cx="{x2:.1f}" cy="{y2:.1f}" r="4"/><path class="core" d="{d}"/><circle '
            f'class="foot" cx="{x2:.1f}" cy="{y2:.1f}" r="2.3"/></g>'
        )
    # The claw: the stick forks at 15 into two prongs that spread to PINCER_END.
    fork = 15.0
    xf, yf = x + fork * dx, y + fork * dy
    px, py = -dy * 5.5, dx * 5.5
    xe, ye = x + PINCER_END * dx, y + PINCER_END * dy
    d = (
        f"M{x1:.1f},{y1:.1f}L{xf:.1f},{yf:.1f}"
        f"M{xe + px:.1f},{ye + py:.1f}L{xf:.1f},{yf:.1f}L{xe - px:.1f},{ye - py:.1f}"
    )
    return f'<g class="limb pincer"><path class="edge" d="{d}"/><path class="core" d="{d}"/></g>'


def piece_svg(piece: Piece, x: float, y: float, *, flipped: bool = False) -> str:
    """One adaptoid: limbs, body and, on the body, its pincer count (top) and leg count
    (bottom), as the limbs sit.  Drawn upright whichever way the board is turned."""
    side = "w" if piece.color is Color.WHITE else "b"
    turn = f' transform="rotate(180 {x:.1f} {y:.1f})"' if flipped else ""
    parts = [f'<g class="piece {side} upright" data-x="{x:.1f}" data-y="{y:.1f}"{turn}>']
    parts += [_limb(x, y, a, "pincer") for a in PINCER_SLOTS[: piece.pincers]]
    parts += [_limb(x, y, a, "leg") for a in LEG_SLOTS[: piece.legs]]
    body = "body-w" if piece.color is Color.WHITE else "body-b"
    parts.append(f'<circle class="{body}" cx="{x:.1f}" cy="{y:.1f}" r="{BODY:.0f}"/>')
    if piece.legs or piece.pincers:
        parts.append(
            f'<text class="count" x="{x:.1f}" y="{y - 5.2:.1f}" aria-hidden="true">'
            f"{piece.pincers}</text>"
            f'<text class="count" x="{x:.1f}" y="{y + 5.4:.1f}" aria-hidden="true">'
            f"{piece.legs}</text>"
            f'<path class="count-rule" d="M{x - 5:.1f},{y:.1f}H{x + 5:.1f}"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def describe_piece(piece: Piece | None, labels: dict[str, str]) -> str:
    if piece is None:
        return labels["empty"]
    key = "white_piece" if piece.color is Color.WHITE else "black_piece"
    return labels[key] % {"legs": piece.legs, "pincers": piece.pincers}


DEFAULT_LABELS = {
    "empty": "empty",
    "white_piece": "white adaptoid, %(legs)d legs, %(pincers)d pincers",
    "black_piece": "black adaptoid, %(legs)d legs, %(pincers)d pincers",
    "board": "Adaptoid board",
}


def board_svg(
    position: Position,
    *,
    highlight: Iterable[str] = (),
    interactive: bool = False,
    labels: dict[str, str] | None = None,
    title: str | None = None,
    css_class: str = "board",
    describe: Callable[[Piece | None, dict[str, str]], str] = describe_piece,
    flipped: bool = False,
) -> str:
    """The SVG text of `position`; `highlight` cells are marked as the last turn's.

    `flipped` turns the board half a turn (Black's view: row 7 at the bottom); pieces and
    coordinates stay upright, and the page's script can turn it back (class "upright",
    ``data-center``)."""
    labels = {**DEFAULT_LABELS, **(labels or {})}
    board = position.board
    coords = {name: board.coordinates(name) for name in board.cells}
    pieces = {piece.cell: piece for piece in position.pieces()}
    marked = {cell.upper() for cell in highlight}
    centers = {name: _center(*cr) for name, cr in coords.items()}
    # Coordinates on the edge: a column's letter under its lowest cell, a row's
    # number beyond its first cell (the virtual neighbour at (c-1, r)).
    edge: list[tuple[float, float, str]] = []
    columns: dict[int, int] = {}
    rows: dict[int, int] = {}
    for col, row in coords.values():
        columns[col] = min(columns.get(col, row), row)
        rows[row] = min(rows.get(row, col), col)
    for col, row in columns.items():
        x, y = _center(col, row - 1)
        edge.append((x, y - 8, chr(ord("A") + col)))
    for row, col in rows.items():
        x, y = _center(col - 1, row)
        edge.append((x + 8, y + 4, str(row + 1)))
    xs = [x for x, _ in centers.values()] + [x for x, _, _ in edge]
    ys = [y for _, y in centers.values()] + [y for _, y, _ in edge]
    pad = RADIUS + 4
    left, top = min(xs) - pad, min(ys) - pad
    width, height = max(xs) - left + pad, max(ys) - top + pad
    cx, cy = left + width / 2, top + height / 2
    turn = f' transform="rotate(180 {cx:.1f} {cy:.1f})"' if flipped else ""
    out = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="{escape(css_class)}" '
            f'viewBox="{left:.0f} {top:.0f} {width:.0f} {height:.0f}" role="group" '
            f'aria-label="{escape(title or labels["board"])}" '
            f'data-position="{escape(str(position))}" data-center="{cx:.1f} {cy:.1f}" '
            f'data-flipped="{"1" if flipped else "0"}">'
        ),
        f"<style>{STYLE}</style>",
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<g class="turnable"{turn}>')
    for name in board.cells:
        x, y = centers[name]
        piece = pieces.get(name)
        classes = "cell last" if name in marked else "cell"
        label = f"{name}: {describe(piece, labels)}"
        extra = ' tabindex="0" role="button"' if interactive else ' role="img"'
        out.append(
            f'<g class="{classes}" data-cell="{name}"{extra} aria-label="{escape(label)}">'
            f'<polygon points="{_hexagon(x, y, RADIUS - 1)}"/>'
        )
        if piece is not None:
            out.append(piece_svg(piece, x, y, flipped=flipped))
        out.append("</g>")
    for x, y, text in edge:
        upright = f' transform="rotate(180 {x:.1f} {y:.1f})"' if flipped else ""
        out.append(
            f'<text class="coord upright" x="{x:.1f}" y="{y:.1f}" data-x="{x:.1f}" '
            f'data-y="{y:.1f}" aria-hidden="true"{upright}>{text}</text>'
        )
    out.append("</g></svg>")
    return "".join(out)


def turn_cells(text: str) -> list[str]:
    """The cells a turn's notation names (to highlight the last turn)."""
    cells: list[str] = []
    for chunk in text.replace("x", "-").replace("X", "-").replace(",", "-").split("-"):
        name = chunk.strip().rstrip("LPlp")
        if name and parse_cell(name) is not None:
            cells.append(name.upper())
    return cells
