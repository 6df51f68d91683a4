"""Messages between the two players of a game, and players' reports of them to staff.

Private to the game's players (and staff), as lichess's correspondence chat: plain
text, written by chat.services.  A message staff hid stays in the table (the report
keeps its context) but is no longer shown to the players.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

MAX_LENGTH = 500


class Message(models.Model):
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="messages", verbose_name=_("game")
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="game_messages",
        verbose_name=_("author"),
    )
    text = models.CharField(_("text"), max_length=MAX_LENGTH)
    created = models.DateTimeField(_("sent"), auto_now_add=True)
    # Set by staff (the admin's "hide" action): the players no longer see it.
    hidden = models.DateTimeField(_("hidden"), null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("hidden by"),
    )

    class Meta:
        ordering = ["id"]
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        indexes = [models.Index(fields=["game", "id"], name="message_game_id")]

    def __str__(self) -> str:
        return f"#{self.game_id} {self.author_id}: {self.text[:40]}"


class MessageReport(models.Model):
    """A player tells staff a message breaks the rules; one report per player and message."""

    message = models.ForeignKey(
        Message, on_delete=models.CASCADE, related_name="reports", verbose_name=_("message")
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="message_reports",
        verbose_name=_("reported by"),
    )
    reason = models.CharField(_("reason"), max_length=MAX_LENGTH, blank=True)
    created = models.DateTimeField(_("reported"), auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("message report")
        verbose_name_plural = _("message reports")
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="report_once")]

    def __str__(self) -> str:
        return f"report of message {self.message_id} by {self.reporter_id}"
