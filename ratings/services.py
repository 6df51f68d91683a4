"""Glicko-2 ratings of players and bots (the arithmetic is ratings/glicko2.py).

* A rating period is one game (as on lichess): when a rated game finishes, the
  task ``ratings.tasks.rate_game`` updates both players at once from their
  ratings before the game, and stores a ``RatingChange`` row per player.
* Deviation does not grow with inactivity between games (the paper's empty
  periods are not applied); a new player starts at 1500 ± 350.
* Not rated: unrated games, games ended as ``abandoned`` (nobody played them out), and
  aborted games (result ``*``: no score to rate, games.agreements.abort).
* ``ratings.chart.rating_chart_svg`` draws a player's history server-side.
"""

from __future__ import annotations

from django.db import transaction

from accounts.models import Profile
from games.models import Game
from ratings import glicko2
from ratings.models import RatingChange

# Above this deviation a rating is provisional (shown with "?"), as on lichess.
PROVISIONAL_DEVIATION = 110.0

_SCORES: dict[str, float] = {
    Game.Result.WHITE_WINS: 1.0,
    Game.Result.BLACK_WINS: 0.0,
    Game.Result.DRAW: 0.5,
}


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
