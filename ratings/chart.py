"""A player's rating history as an SVG line chart, drawn on the server (no JavaScript)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ratings.models import RatingChange


def rating_chart_svg(
    changes: Sequence[RatingChange], *, width: int = 600, height: int = 200, title: str = ""
) -> str:
    """An SVG line chart of ratings after each game, with the ±deviation band.

    The x axis is the game number (not time: correspondence games end unevenly).
    Starts from the rating before the first game; an empty history draws a note.
    """
    pad_left, pad_right, pad_top, pad_bottom = 44, 10, 10, 22
    inner_w, inner_h = width - pad_left - pad_right, height - pad_top - pad_bottom
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}" '
            'class="rating-chart" font-family="sans-serif" font-size="11">'
        ),
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>',
    ]
    if not changes:
        parts.append(
            f'<text x="{width / 2:.0f}" y="{height / 2:.0f}" text-anchor="middle" '
            f'fill="#666">–</text></svg>'
        )
        return "".join(parts)
    # Point 0 is the rating before the first game (deviation unknown there: use the first).
    ratings = [changes[0].rating_before] + [change.rating for change in changes]
    deviations = [changes[0].deviation] + [change.deviation for change in changes]
    low = min(r - d for r, d in zip(ratings, deviations, strict=True))
    high = max(r + d for r, d in zip(ratings, deviations, strict=True))
    low, high = 50 * (low // 50), 50 * (high // 50 + 1)
    count = len(ratings)

    def x(index: int) -> float:
        return pad_left + (inner_w * index / (count - 1) if count > 1 else inner_w / 2)

    def y(value: float) -> float:
        return pad_top + inner_h * (high - value) / (high - low)

    # Grid lines with labels, about four of them.
    step = max(50, int((high - low) / 4 // 50 * 50))
    value = low
    while value <= high:
        parts.append(
            f'<line x1="{pad_left}" x2="{width - pad_right}" y1="{y(value):.1f}" '
            f'y2="{y(value):.1f}" stroke="#ddd"/>'
            f'<text x="{pad_left - 4}" y="{y(value) + 4:.1f}" text-anchor="end" '
            f'fill="#666">{value:.0f}</text>'
        )
        value += step
    band = [
        f"{x(i):.1f},{y(r + d):.1f}"
        for i, (r, d) in enumerate(zip(ratings, deviations, strict=True))
    ]
    band += [
        f"{x(i):.1f},{y(r - d):.1f}"
        for i, (r, d) in reversed(list(enumerate(zip(ratings, deviations, strict=True))))
    ]
    parts.append(f'<polygon points="{" ".join(band)}" fill="#cfe0f5" stroke="none"/>')
    line = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, r in enumerate(ratings))
    parts.append(f'<polyline points="{line}" fill="none" stroke="#1f5fa8" stroke-width="2"/>')
    for i, rating in enumerate(ratings):
        parts.append(
            f'<circle cx="{x(i):.1f}" cy="{y(rating):.1f}" r="2.5" fill="#1f5fa8">'
            f"<title>{rating:.0f} ± {deviations[i]:.0f}</title></circle>"
        )
    parts.append(
        f'<text x="{pad_left}" y="{height - 6}" fill="#666">0</text>'
        f'<text x="{width - pad_right}" y="{height - 6}" text-anchor="end" '
        f'fill="#666">{count - 1}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)
