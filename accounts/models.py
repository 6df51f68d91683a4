"""Who a player is: the profile beside each user, and the API tokens.

The profile's rating, bot and vacation fields belong to other apps' concerns (ratings,
bots, clocks) and are read there; they stay on this row until those apps get models
of their own.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class TurnEmail(models.TextChoices):
    EACH = "each", _("An email per game (at most one every few hours)")
    DIGEST = "digest", _("One daily digest")


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(_("display name"), max_length=64, blank=True)
    is_bot = models.BooleanField(_("bot"), default=False)
    # Which engine player (engine.players.get_player name) plays for a bot account.
    bot_engine = models.CharField(_("bot engine player"), max_length=32, blank=True)
    bot_level = models.PositiveSmallIntegerField(_("bot level"), null=True, blank=True)
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    email_notifications = models.BooleanField(_("email notifications"), default=True)
    # Glicko-2 (see games/glicko2.py); stored here so ratings need no later migration.
    rating = models.FloatField(_("rating"), default=1500.0)
    rating_deviation = models.FloatField(_("rating deviation"), default=350.0)
    rating_volatility = models.FloatField(_("rating volatility"), default=0.06)
    vacation_days_left = models.PositiveSmallIntegerField(_("vacation days left"), default=14)
    # Correspondence clocks (clocks app): weekends are Saturday and Sunday in this zone.
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    # Spend a vacation day instead of losing on time.
    auto_vacation = models.BooleanField(_("automatic vacation"), default=True)
    # Set while on vacation: all clocks of this player stop (games that allow it).
    vacation_started = models.DateTimeField(_("on vacation since"), null=True, blank=True)
    vacation_until = models.DateTimeField(_("vacation ends"), null=True, blank=True)
    # The calendar year `vacation_days_left` belongs to (a new year refills it).
    vacation_year = models.PositiveSmallIntegerField(_("vacation year"), default=0)
    turn_email = models.CharField(
        _("your-turn emails"), max_length=8, choices=TurnEmail.choices, default=TurnEmail.EACH
    )

    class Meta:
        db_table = "games_profile"  # moved from the games app with its table
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.shown_name

    @property
    def shown_name(self) -> str:
        """The name pages show.  A built-in bot's display name is a catalogue message
        (bots/services.py marks them), so it comes out in the reader's language."""
        if self.bot_engine and self.display_name:
            return gettext(self.display_name)
        return self.display_name or self.user.get_username()


class ApiToken(models.Model):
    """A bearer token. Only its SHA-256 is stored; the secret is shown once.

    The token the client holds is ``<prefix>.<secret>``; the prefix finds the row,
    the hash of the whole token proves it.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    prefix = models.CharField(_("prefix"), max_length=16, unique=True)
    digest = models.CharField(_("SHA-256"), max_length=64)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    last_used = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        db_table = "games_apitoken"  # moved from the games app with its table
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user.get_username()})"


class Block(models.Model):
    """`blocker` does not want to hear from `blocked`: no challenges, no messages, no
    pairing in the open lobby (accounts.services.is_blocked checks both directions)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocks_made",
        verbose_name=_("blocked by"),
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocks_received",
        verbose_name=_("blocked player"),
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class UsernameSkeleton(models.Model):
    """What an account's username looks like (accounts.usernames.username_skeleton): one
    account per look, so that ``rt0O`` cannot be registered beside ``rt00``.  Unique in
    the database, so two look-alike sign-ups at once cannot both succeed.  Players named
    in imported files (the ``@imported`` namespace) have none."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="username_skeleton",
    )
    skeleton = models.TextField(_("username skeleton"), unique=True)

    class Meta:
        verbose_name = _("username skeleton")
        verbose_name_plural = _("username skeletons")

    def __str__(self) -> str:
        return self.skeleton
