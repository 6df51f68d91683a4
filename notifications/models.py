"""What the site tells a player: one row per event, shown on /notifications/ and,
depending on the player's choices, emailed (at once, batched, or in a daily digest).

The text is not stored: ``kind`` and ``params`` are, and ``message`` renders them
in the active language, so the same row reads in English on the page and in
Russian in the email of a Russian-speaking player.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.division_names import shown_tournament_name


class Kind(models.TextChoices):
    YOUR_TURN = "your_turn", _("Your turn")
    LOW_TIME = "low_time", _("Under 24 hours left")
    GAME_OVER = "game_over", _("Game over")
    CHALLENGE = "challenge", _("Challenge received")
    TOURNAMENT_STARTED = "tournament_started", _("Tournament started")
    ROUND_PAIRED = "round_paired", _("New round paired")
    # A TRF import named a player as this account is named (tournaments.SeatInvitation).
    TOURNAMENT_INVITATION = "tournament_invitation", _("Invitation to a tournament")
    AUTO_VACATION = "auto_vacation", _("Vacation day used")
    MESSAGE = "message", _("New message")


# %(name)s placeholders filled from Notification.params (missing ones print as "?").
MESSAGES: dict[str, Any] = {
    Kind.YOUR_TURN: _("It is your turn in game #%(game)s against %(opponent)s."),
    Kind.LOW_TIME: _(
        "Less than 24 hours are left on your clock in game #%(game)s against %(opponent)s."
    ),
    Kind.GAME_OVER: _("Game #%(game)s against %(opponent)s is over: %(result)s (%(termination)s)."),
    Kind.CHALLENGE: _("%(challenger)s challenges you to a game (%(time_control)s)."),
    Kind.TOURNAMENT_STARTED: _("The tournament %(tournament)s has started."),
    Kind.ROUND_PAIRED: _(
        "Round %(round)s of %(tournament)s is paired: you play %(opponent)s (game #%(game)s)."
    ),
    Kind.TOURNAMENT_INVITATION: _(
        "%(organiser)s imported the tournament %(tournament)s, in which %(name)s plays. "
        "If that is you, you may take the place."
    ),
    Kind.AUTO_VACATION: _(
        "Your clock ran out in game #%(game)s: a vacation day was spent instead of losing "
        "(%(days_left)s left this year)."
    ),
    Kind.MESSAGE: _("New message in game #%(game)s from %(author)s."),
}


# A your-turn notice after the opponent's turn was played from their conditional lines.
AUTOMATIC_TURN_MESSAGE = _(
    "It is your turn in game #%(game)s against %(opponent)s: their turn %(automatic_turn)s "
    "was played automatically (a conditional turn)."
)


class EmailState(models.TextChoices):
    NONE = "none", _("No email")  # emails off, no address, or a kind never emailed
    PENDING = "pending", _("To send")
    DIGEST = "digest", _("Waits for the daily digest")
    SENDING = "sending", _("Being sent")
    SENT = "sent", _("Sent")
    # A your-turn email for the same game went out less than N hours ago.
    BATCHED = "batched", _("Covered by an earlier email")
    FAILED = "failed", _("Failed")


class Notification(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    game = models.ForeignKey(
        "games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    url = models.CharField(_("link"), max_length=300, blank=True)
    # Non-empty: at most one notification per user with this key (e.g. one low-time
    # warning per game and turn), enforced by the database against racing sweepers.
    dedupe_key = models.CharField(max_length=120, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    read = models.DateTimeField(_("read"), null=True, blank=True)
    email_state = models.CharField(
        _("email"), max_length=8, choices=EmailState.choices, default=EmailState.NONE
    )
    # Emailed in the daily digest rather than alone.
    digest = models.BooleanField(default=False)
    email_attempts = models.PositiveSmallIntegerField(default=0)
    # When a sender claimed it (a stale claim means the sender died: it is released).
    email_claimed = models.DateTimeField(null=True, blank=True)
    emailed = models.DateTimeField(_("emailed"), null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        indexes = [
            models.Index(fields=["user", "-created"], name="notification_user_created"),
            models.Index(fields=["email_state", "created"], name="notification_email_state"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "dedupe_key"],
                condition=~Q(dedupe_key=""),
                name="notification_unique_dedupe_key",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.created:%Y-%m-%d %H:%M}"

    @property
    def message(self) -> str:
        """The text in the active language (translation.override for another one)."""
        values: defaultdict[str, Any] = defaultdict(lambda: "?", self.params or {})
        if self.kind == Kind.GAME_OVER and "termination" in values:
            from games.models import Game

            termination = values["termination"]
            if termination in Game.Termination.values:
                values["termination"] = Game.Termination(termination).label
        if self.kind == Kind.CHALLENGE and "days" in values:
            from clocks.timecontrol import TimeControl

            values["time_control"] = TimeControl.from_hours(
                kind=values["clock_kind"],
                days=values["days"],
                increment_hours=values.get("increment_hours", 0),
                weekend_pause=bool(values.get("weekend_pause")),
            ).label()
        if "tournament" in values:  # a league division's name, in the active language
            values["tournament"] = shown_tournament_name(str(values["tournament"]))
        template = MESSAGES.get(self.kind)
        if self.kind == Kind.YOUR_TURN and "automatic_turn" in values:
            template = AUTOMATIC_TURN_MESSAGE
        if template is None:
            return str(self.params.get("text", self.kind))
        return str(template) % values
