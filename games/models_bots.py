"""Models for bots, bot matches, ratings history and the per-user event stream.

Kept out of ``games/models.py`` (which re-exports them) so the core models stay
small; they live in the ``games`` app and its migrations all the same.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class BotMatch(models.Model):
    """N games between two built-in bots, colours alternating, played by Celery tasks."""

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="bot_matches_started",
        verbose_name=_("started by"),
    )
    # `white` plays White in the odd-numbered games (1, 3, …) and Black in the others;
    # the score is always given from `white`'s point of view.
    white = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("first bot"),
    )
    black = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("second bot"),
    )
    games = models.PositiveSmallIntegerField(_("games"))
    seconds_per_turn = models.FloatField(_("seconds per turn"))
    rated = models.BooleanField(_("rated"), default=False)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.RUNNING
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("bot match")
        verbose_name_plural = _("bot matches")
        indexes = [
            # The per-user limit counts running matches of one user.
            models.Index(fields=["created_by", "status"], name="botmatch_creator_status"),
            models.Index(fields=["status"], name="botmatch_status"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.white_id} – {self.black_id} ×{self.games} ({self.status})"


class BotMatchGame(models.Model):
    """One game of a bot match; `number` is 1-based and decides the colours."""

    match = models.ForeignKey(
        BotMatch, on_delete=models.CASCADE, related_name="entries", verbose_name=_("bot match")
    )
    game = models.OneToOneField(
        "games.Game",
        on_delete=models.CASCADE,
        related_name="bot_match_entry",
        verbose_name=_("game"),
    )
    number = models.PositiveSmallIntegerField(_("number"))

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("bot match game")
        verbose_name_plural = _("bot match games")
        constraints = [
            # Two workers advancing the same match can never create game n twice.
            models.UniqueConstraint(fields=["match", "number"], name="botmatchgame_unique_number"),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} game {self.number}"


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


class Event(models.Model):
    """One line of a user's event stream (GET /api/v1/stream/events).

    Written by receivers in the same transaction as the change it reports; the
    stream polls this table by id, which works alike on SQLite and PostgreSQL.
    Old rows are pruned by the periodic sweep.
    """

    class Type(models.TextChoices):
        CHALLENGE = "challenge", _("Challenge")
        GAME_START = "game_start", _("Game start")
        TURN = "turn", _("Turn")
        GAME_FINISH = "game_finish", _("Game finish")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="events",
        verbose_name=_("player"),
    )
    type = models.CharField(_("type"), max_length=16, choices=Type.choices)
    payload = models.JSONField(_("payload"), default=dict)
    created = models.DateTimeField(_("time"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        indexes = [models.Index(fields=["user", "id"], name="event_user_id")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.type} #{self.pk}"
