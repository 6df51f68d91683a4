"""The per-user event stream's rows (stream.events).

The table was created by the games app (migration games 0004) and kept its name
when the model moved here (``db_table``; see stream/migrations/0001_initial.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


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
        MESSAGE = "message", _("Message")  # written by chat.services
        # Page-only (stream.events.PAGE_ONLY_TYPES): not in the bots' NDJSON stream.
        DRAW_OFFER = "draw_offer", _("Draw offer")

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
        db_table = "games_event"
        ordering = ["id"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        indexes = [models.Index(fields=["user", "id"], name="event_user_id")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.type} #{self.pk}"
