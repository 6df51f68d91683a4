"""Players, challenges, games and turns.

The engine (``engine/``) is the only judge of legality: a game stores the
canonical texts the engine produced, and its cached ``position``/``ply`` are
always the result of replaying those turns from ``start_position``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Color(models.TextChoices):
    WHITE = "white", _("White")
    BLACK = "black", _("Black")


class ClockKind(models.TextChoices):
    """Time control of a game (see clocks/arithmetic.py)."""

    # Each turn must be played within `days_per_turn` days.
    PER_TURN = "per_turn", _("Days per turn")
    # Little Golem style: a bank of `days_per_turn` days, `clock_increment` added per
    # turn, capped at the initial bank.
    BANK = "bank", _("Time bank")


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
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()


class Challenge(models.Model):
    class ColorChoice(models.TextChoices):
        WHITE = "white", _("White")
        BLACK = "black", _("Black")
        RANDOM = "random", _("Random")

    class Opening(models.TextChoices):
        STANDARD = "standard", _("Standard")
        PIE = "pie", _("Pie")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_sent",
        verbose_name=_("from"),
    )
    # Null: an open challenge that anybody but its creator may accept.
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received",
        verbose_name=_("to"),
    )
    # The colour the creator asked for.
    color = models.CharField(
        _("colour"), max_length=8, choices=ColorChoice.choices, default=ColorChoice.RANDOM
    )
    opening = models.CharField(
        _("opening"), max_length=8, choices=Opening.choices, default=Opening.STANDARD
    )
    days_per_turn = models.PositiveSmallIntegerField(_("days per turn"), default=3)
    clock_kind = models.CharField(
        _("time control"), max_length=8, choices=ClockKind.choices, default=ClockKind.PER_TURN
    )
    increment_hours = models.PositiveSmallIntegerField(_("increment (hours)"), default=0)
    weekend_pause = models.BooleanField(_("weekend pause"), default=False)
    rated = models.BooleanField(_("rated"), default=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    game = models.OneToOneField(
        "games.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="challenge",
        verbose_name=_("game"),
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")

    def __str__(self) -> str:
        to = self.opponent.get_username() if self.opponent_id else _("anyone")
        return f"#{self.pk} {self.created_by.get_username()} → {to} ({self.status})"


class Game(models.Model):
    class Opening(models.TextChoices):
        STANDARD = "standard", _("Standard")
        PIE = "pie", _("Pie")
        CUSTOM = "custom", _("Custom position")

    class Status(models.TextChoices):
        SETUP = "setup", _("Setup")  # pie opening: pieces being placed / colour being chosen
        ACTIVE = "active", _("Active")
        FINISHED = "finished", _("Finished")

    class Result(models.TextChoices):
        WHITE_WINS = "1-0", "1-0"
        BLACK_WINS = "0-1", "0-1"
        DRAW = "1/2-1/2", "1/2-1/2"
        ONGOING = "*", "*"

    class Termination(models.TextChoices):
        CAPTURES = "captures", _("Captures")
        ELIMINATION = "elimination", _("Elimination")
        REPETITION = "repetition", _("Repetition")
        RESIGNATION = "resignation", _("Resignation")
        TIMEOUT = "timeout", _("Timeout")
        ABANDONED = "abandoned", _("Abandoned")
        # A draw agreed by both players (or adjudicated as one, see services.adjudicate).
        AGREEMENT = "agreement", _("Draw agreed")
        # A result decided by a tournament's organiser on an unfinished game.
        ADJUDICATION = "adjudication", _("Adjudicated")

    # During a pie setup `white` is the player who places the pieces and `black` the
    # one who then chooses a colour; choose_color swaps them if needed.
    white = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="games_as_white",
        verbose_name=_("white"),
    )
    black = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="games_as_black",
        verbose_name=_("black"),
    )
    opening = models.CharField(
        _("opening"), max_length=8, choices=Opening.choices, default=Opening.STANDARD
    )
    # Position string the game starts from ("" while a pie setup is pending).
    start_position = models.CharField(_("start position"), max_length=1024, blank=True)
    board = models.CharField(
        _("board"), max_length=512, blank=True, help_text=_("Blank for the standard board.")
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )
    result = models.CharField(
        _("result"), max_length=8, choices=Result.choices, default=Result.ONGOING
    )
    termination = models.CharField(
        _("termination"), max_length=12, choices=Termination.choices, blank=True
    )
    rated = models.BooleanField(_("rated"), default=True)
    imported = models.BooleanField(_("imported"), default=False)
    # Per-turn clocks: days for each turn; bank clocks: the initial (and maximum) bank.
    days_per_turn = models.PositiveSmallIntegerField(_("days per turn"), default=3)
    # When the player to move runs out of time (null: finished, or clock stopped by vacation).
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    # --- Correspondence clock (clocks app; state changed only by clocks.services) ---
    clock_kind = models.CharField(
        _("time control"), max_length=8, choices=ClockKind.choices, default=ClockKind.PER_TURN
    )
    clock_increment = models.PositiveIntegerField(_("increment (seconds)"), default=0)
    weekend_pause = models.BooleanField(_("weekend pause"), default=False)
    # Tournaments may forbid vacation: the clocks of this game then never stop.
    vacation_allowed = models.BooleanField(_("vacation allowed"), default=True)
    # Seconds left on each clock when it last stopped (null: full, never started).
    white_clock = models.PositiveIntegerField(_("White's time left (s)"), null=True, blank=True)
    black_clock = models.PositiveIntegerField(_("Black's time left (s)"), null=True, blank=True)
    # When the clock of the player to move started running (null: stopped by vacation).
    clock_since = models.DateTimeField(_("clock running since"), null=True, blank=True)
    # The mover's time zone, fixed when their clock started (weekends are counted in it).
    clock_time_zone = models.CharField(_("clock time zone"), max_length=64, default="UTC")
    # Cached: the engine's position after `ply` turns, kept in step by services.
    position = models.CharField(_("position"), max_length=1024, blank=True)
    ply = models.PositiveIntegerField(_("turns played"), default=0)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)

    # Not a column: services.play_turn leaves the texts of all the stored turns here,
    # so that its answer needs no query for them (None: not known, read game.turns).
    turn_texts: list[str] | None = None

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [
            # Archive filtering: by player, by status, by date.
            models.Index(fields=["white", "-created"], name="game_white_created"),
            models.Index(fields=["black", "-created"], name="game_black_created"),
            models.Index(fields=["status", "-created"], name="game_status_created"),
            # The archive (archive.services): finished games by date or length.
            models.Index(fields=["status", "-finished", "-id"], name="game_status_finished"),
            models.Index(fields=["status", "-ply", "-id"], name="game_status_ply"),
            # A player's finished games (player page, archive player filter).
            models.Index(fields=["white", "status", "-finished"], name="game_white_finished"),
            models.Index(fields=["black", "status", "-finished"], name="game_black_finished"),
            # The clock sweeper looks for active games past their deadline.
            models.Index(fields=["status", "deadline"], name="game_status_deadline"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.white.get_username()} – {self.black.get_username()} {self.result}"

    def color_of(self, user_id: int) -> str | None:
        if user_id == self.white_id:
            return Color.WHITE
        if user_id == self.black_id:
            return Color.BLACK
        return None

    @property
    def to_move(self) -> str | None:
        """Whose turn it is (\"white\"/\"black\"), None unless the game is active."""
        if self.status != self.Status.ACTIVE or not self.position:
            return None
        # RULES.md §7: the second field of a position string is the side, `w` or `b`.
        side = self.position.split(" ")[1]
        return Color.WHITE if side == "w" else Color.BLACK


class Turn(models.Model):
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="turns", verbose_name=_("game")
    )
    ply = models.PositiveIntegerField(_("ply"))  # 1 for the first turn of the game
    text = models.CharField(_("notation"), max_length=64)  # canonical, as the engine writes it
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="turns",
        verbose_name=_("player"),
    )
    created = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        verbose_name = _("turn")
        verbose_name_plural = _("turns")
        constraints = [
            # The database refuses a second turn at the same ply, whatever the code does.
            models.UniqueConstraint(fields=["game", "ply"], name="turn_unique_game_ply"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.ply} {self.text}"


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
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user.get_username()})"


# Bots, bot matches, rating history and stream events live in their own module.
from games.models_bots import BotMatch, BotMatchGame, Event, RatingChange  # noqa: F401
