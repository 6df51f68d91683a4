"""The evaluation graph of an analysed game, as server-side SVG (no script needed).

White's expected score after each ply, 0 (bottom, Black wins) to 1 (top, White wins),
the start at the left.  Each point is a link to the game page at that ply (``?ply=n``),
judged turns are marked, the viewed ply is highlighted.
"""

from __future__ import annotations

from html import escape

WIDTH, HEIGHT, PAD = 600.0, 160.0, 8.0
MARK_CLASSES = {"inaccuracy": "inaccuracy", "mistake": "mistake", "blunder": "blunder"}


def evaluation_svg(
    points: list[tuple[int, float, str, str | None]], *, current: int | None, title: str
) -> str:
    """`points`: (ply, White's expected score, label, judgement) from ply 0 on."""
    if not points:
        return ""
    last = max(1, points[-1][0])

    def x(ply: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * ply / last

    def y(expected: float) -> float:
        return PAD + (HEIGHT - 2 * PAD) * (1.0 - expected)

    line = " ".join(f"{x(ply):.1f},{y(value):.1f}" for ply, value, _label, _j in points)
    area = f"{x(0):.1f},{y(0):.1f} {line} {x(points[-1][0]):.1f},{y(0):.1f}"
    opening = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="eval-graph" viewBox="0 0 {WIDTH:.0f} '
        f'{HEIGHT:.0f}" role="img" aria-labelledby="eval-graph-title">'
    )
    parts = [
        opening,
        f'<title id="eval-graph-title">{escape(title)}</title>',
        f'<rect class="black-side" x="0" y="0" width="{WIDTH:.0f}" height="{HEIGHT:.0f}"/>',
        f'<polygon class="white-side" points="{area}"/>',
        f'<line class="middle" x1="0" y1="{y(0.5):.1f}" x2="{WIDTH:.0f}" y2="{y(0.5):.1f}"/>',
        f'<polyline class="eval-line" points="{line}"/>',
    ]
    for ply, value, label, judgement in points:
        classes = ["point"]
        if judgement in MARK_CLASSES:
            classes.append(MARK_CLASSES[judgement])
        if ply == current:
            classes.append("current")
        radius = 6 if judgement or ply == current else 3.5
        parts.append(
            f'<a href="?ply={ply}" aria-label="{escape(label)}"><circle class="{" ".join(classes)}"'
            f' cx="{x(ply):.1f}" cy="{y(value):.1f}" r="{radius}"><title>{escape(label)}</title>'
            f"</circle></a>"
        )
    parts.append("</svg>")
    return "".join(parts)
