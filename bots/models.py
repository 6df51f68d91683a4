"""Bot matches: N games between two built-in bots (bots.services).

The tables were created by the games app (migration games 0004) and kept their
names when the models moved here (``db_table``; see bots/migrations/0001_initial.py).
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
        db_table = "games_botmatch"
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
        db_table = "games_botmatchgame"
        ordering = ["match", "number"]
        verbose_name = _("bot match game")
        verbose_name_plural = _("bot match games")
        constraints = [
            # Two workers advancing the same match can never create game n twice.
            models.UniqueConstraint(fields=["match", "number"], name="botmatchgame_unique_number"),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} game {self.number}"
