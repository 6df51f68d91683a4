"""Rating history: one row per player and rated game (ratings.services).

The table was created by the games app (migration games 0004) and kept its name
when the model moved here (``db_table``; see ratings/migrations/0001_initial.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class RatingChange(models.Model):
    """A player's Glicko-2 rating after one rated game (one rating period per game)."""

    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("game"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("player"),
    )
    rating_before = models.FloatField(_("rating before"))
    rating = models.FloatField(_("rating"))
    deviation = models.FloatField(_("rating deviation"))
    volatility = models.FloatField(_("rating volatility"))
    created = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        db_table = "games_ratingchange"
        ordering = ["user", "created", "id"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            # A game is rated at most once per player, however often the task runs.
            models.UniqueConstraint(fields=["game", "user"], name="ratingchange_unique_game_user"),
        ]
        indexes = [models.Index(fields=["user", "created"], name="ratingchange_user_created")]

    def __str__(self) -> str:
        return f"{self.user_id} after game {self.game_id}: {self.rating:.0f}"
