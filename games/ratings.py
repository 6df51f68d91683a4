"""Glicko-2 ratings of players and bots (the arithmetic is games/glicko2.py).

* A rating period is one game (as on lichess): when a rated game finishes, the
  task ``games.bot_tasks.rate_game`` updates both players at once from their
  ratings before the game, and stores a ``RatingChange`` row per player.
* Deviation does not grow with inactivity between games (the paper's empty
  periods are not applied); a new player starts at 1500 ± 350.
* Not rated: unrated games, and games ended as ``abandoned`` (nobody played them out).
* ``rating_chart_svg`` draws a player's history server-side (no JavaScript).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from django.db import transaction

from accounts.models import Profile
from games import glicko2
from games.models import Game, RatingChange

# Above this deviation a rating is provisional (shown with "?"), as on lichess.
PROVISIONAL_DEVIATION = 110.0

_SCORES = {Game.Result.WHITE_WINS: 1.0, Game.Result.BLACK_WINS: 0.0, Game.Result.DRAW: 0.5}


def rate_finished_game(*, game_id: int) -> list[RatingChange]:
    """Update both players' ratings after game `game_id`. Idempotent.

    Returns the game's rating changes (the existing ones when it was already
    rated, none when the game is not to be rated).
    """
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id).first()
        if (
            game is None
            or not game.rated
            or game.status != Game.Status.FINISHED
            or game.result not in _SCORES
            or game.termination == Game.Termination.ABANDONED
        ):
            return []
        # Lock both profiles in a fixed order: two games of one player finishing at
        # once are rated one after the other, each from the other's result.
        profiles = {
            profile.user_id: profile
            for profile in Profile.objects.select_for_update()
            .filter(user_id__in=[game.white_id, game.black_id])
            .order_by("user_id")
        }
        existing = list(RatingChange.objects.filter(game=game).order_by("id"))
        if existing:
            return existing  # a redelivered task: rated already
        white, black = profiles[game.white_id], profiles[game.black_id]
        new_white, new_black = glicko2.rate_game(
            _rating_of(white), _rating_of(black), _SCORES[game.result]
        )
        changes = []
        for profile, new in ((white, new_white), (black, new_black)):
            changes.append(
                RatingChange(
                    game=game,
                    user_id=profile.user_id,
                    rating_before=profile.rating,
                    rating=new.rating,
                    deviation=new.deviation,
                    volatility=new.volatility,
                )
            )
            profile.rating = new.rating
            profile.rating_deviation = new.deviation
            profile.rating_volatility = new.volatility
            profile.save(update_fields=["rating", "rating_deviation", "rating_volatility"])
        RatingChange.objects.bulk_create(changes)
    return changes


def _rating_of(profile: Profile) -> glicko2.Rating:
    return glicko2.Rating(profile.rating, profile.rating_deviation, profile.rating_volatility)


def is_provisional(profile: Profile) -> bool:
    return profile.rating_deviation > PROVISIONAL_DEVIATION


# --- The chart ------------------------------------------------------------------------------


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
