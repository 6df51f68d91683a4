"""Challenges, games and turns.

The engine (``engine/``) is the only judge of legality: a game stores the
canonical texts the engine produced, and its cached ``position``/``ply`` are
always the result of replaying those turns from ``start_position``.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clocks.models import TimeControlFields


class Color(models.TextChoices):
    WHITE = "white", _("White")
    BLACK = "black", _("Black")


class PieStep(NamedTuple):
    """A pie setup's next step (Game.pie_step): "place" one adaptoid of each colour, or
    "choose" a colour, and the seat of the player who must do it."""

    action: Literal["place", "choose"]
    color: str


class Challenge(TimeControlFields):
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
    # The time control: days_per_turn, clock_kind, clock_increment, weekend_pause
    # (clocks.models.TimeControlFields; read as challenge.time_control).
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
    # The client's Idempotency-Key of the POST that made it: a retry makes no second one.
    idempotency_key = models.CharField(_("idempotency key"), max_length=64, blank=True)
    # A rematch (games.agreements.rematch): the finished game it repeats, and the custom
    # start position that game had ("" for the standard start or a pie opening).
    rematch_of = models.ForeignKey(
        "games.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematches",
        verbose_name=_("rematch of"),
    )
    start_position = models.CharField(_("start position"), max_length=1024, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        constraints = [
            models.UniqueConstraint(
                fields=["created_by", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="challenge_unique_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        to = self.opponent.get_username() if self.opponent is not None else _("anyone")
        return f"#{self.pk} {self.created_by.get_username()} → {to} ({self.status})"


class Game(TimeControlFields):
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
        # Called off before both players made their first turn: result "*", unrated
        # (games.agreements.abort).
        ABORTED = "aborted", _("Aborted")

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
    # The time control: days_per_turn, clock_kind, clock_increment (seconds),
    # weekend_pause (clocks.models.TimeControlFields; read as game.time_control).
    # When the player to move runs out of time (null: finished, or clock stopped by vacation).
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    # --- Correspondence clock (changed by clocks.state and games.timekeeping only) ---
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
    # The colour of the player whose draw offer stands ("" for none): games.agreements.
    draw_offer = models.CharField(
        _("draw offered by"), max_length=8, choices=Color.choices, blank=True
    )
    # Some player may have conditional lines (games.conditional keeps it; False: surely
    # none).  On the row, not a subquery: read fresh under the row lock, and a turn needs
    # no query for lines when there are none.
    has_conditional_lines = models.BooleanField(_("conditional turns pending"), default=False)

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

    # The stored turns' texts when the game was read with them in one round trip
    # (games.hot_reads.locked_game); not set otherwise.
    stored_turn_texts: list[str]

    def color_of(self, user_id: int | None) -> str | None:
        if user_id == self.white_id:
            return Color.WHITE
        if user_id == self.black_id:
            return Color.BLACK
        return None

    def color_to_act(self) -> str | None:
        """Who must act now, as a colour: the side to move in an active game, the pie
        setup's (pie_step) in a setup; None once finished.  The one answer to this
        question (clocks, bots, pages, notifications)."""
        if self.status == self.Status.ACTIVE:
            return self.to_move
        step = self.pie_step()
        return step.color if step is not None else None

    def pie_step(self) -> PieStep | None:
        """The pie setup's next step, None outside the setup.  The one place the pie
        roles are decided: the player seated White (the first player) places the
        adaptoids, then the player seated Black chooses the colours (choose_color swaps
        the seats if they take White)."""
        if self.status != self.Status.SETUP:
            return None
        if self.start_position:
            return PieStep("choose", Color.BLACK)
        return PieStep("place", Color.WHITE)

    def who_must_act(self) -> int | None:
        """The user id of the player who must act now (see color_to_act), or None."""
        color = self.color_to_act()
        if color is None:
            return None
        return self.white_id if color == Color.WHITE else self.black_id

    def lapse_draw_offer(self, color: str) -> None:
        """The player of `color` played a turn: a draw offer of theirs lapses (the
        caller saves ``draw_offer``; see games.agreements)."""
        if self.draw_offer == color:
            self.draw_offer = ""

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
    # Played by games.conditional from the player's conditional lines, not sent by them.
    automatic = models.BooleanField(_("played automatically"), default=False)

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


class GameNote(models.Model):
    """A player's private notes on a game, seen by nobody else (games.agreements)."""

    MAX_LENGTH = 5000

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="notes", verbose_name=_("game")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="game_notes",
        verbose_name=_("author"),
    )
    text = models.TextField(_("notes"), max_length=MAX_LENGTH, blank=True)
    updated = models.DateTimeField(_("updated"))

    class Meta:
        verbose_name = _("game notes")
        verbose_name_plural = _("game notes")
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="gamenote_unique_game_user"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.user_id}"


class ConditionalLines(models.Model):
    """A waiting player's prepared answers (games.conditional): for the opponent's turn
    number `ply`, a tree ``{opponent turn: {"reply": my turn, "next": tree}}`` of
    canonical texts.  One row per player and game; a new set replaces it."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="conditional_lines", verbose_name=_("game")
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("author"),
    )
    # The opponent's turn the tree starts with: the game's ply + 1 while it is live.
    ply = models.PositiveIntegerField(_("ply"))
    tree = models.JSONField(_("lines"), default=dict)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("conditional turns")
        verbose_name_plural = _("conditional turns")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "author"], name="conditional_lines_unique_game_author"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.ply} {self.author_id}"
