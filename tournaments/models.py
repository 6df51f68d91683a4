"""Tournaments, their players, rounds and pairings.

The database keeps what an arbiter writes down: who registered, each player's
starting rank, every round's boards and each player's *outcome* per board as a
TRF-16 result code (``1 = 0 + - U`` …).  Points, standings and tie-breaks are
never stored: ``tournaments.services`` rebuilds a pure
``tournaments.pairing.Tournament`` from these rows and lets the pairing package
compute them (points are integer half-points there; floats only for display).
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clocks.models import TimeControlFields
from core.division_names import shown_tournament_name
from games.models import Game


class PairingSystem(models.TextChoices):
    """Swiss pairing systems (tournaments.pairing.SYSTEMS)."""

    DUTCH = "dutch", "Dutch"
    BURSTEIN = "burstein", "Burstein"
    DUBOV = "dubov", "Dubov"


class PairingRules(models.TextChoices):
    """Versions of the FIDE Dutch rules (tournaments.pairing.RULES)."""

    FEBRUARY_2026 = "2026", _("February 2026")
    BEFORE_2026 = "2017", _("before February 2026")


class Tournament(TimeControlFields):
    class Format(models.TextChoices):
        ROUND_ROBIN = "roundrobin", _("Round robin")
        DOUBLE_ROUND_ROBIN = "double", _("Double round robin")
        SWISS = "swiss", _("Swiss (FIDE Dutch)")
        KNOCKOUT = "knockout", _("Knockout cup")

    class TieRule(models.TextChoices):
        # Knockout: what settles a drawn match (tournaments.pairing.knockout).
        REPLAY = "replay", _("Another game, colours swapped")
        SEED = "seed", _("The higher seed advances")
        BLACK = "black", _("Black advances")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        # Registration closed by the organiser's start; the start job (tournaments.tasks)
        # ranks the players and pairs round 1, or puts it back in registration with a
        # reason (start_error).
        STARTING = "starting", _("Starting")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class ByePoints(models.IntegerChoices):
        # Half-points, like every score here.
        ONE = 2, "1"
        HALF = 1, "½"
        ZERO = 0, "0"

    name = models.CharField(_("name"), max_length=120)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="organised_tournaments",
        verbose_name=_("organiser"),
    )
    format = models.CharField(_("format"), max_length=12, choices=Format.choices)
    # Swiss: chosen by the organiser. Round robin: set at the start from the players.
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    opening = models.CharField(
        _("opening"), max_length=8, choices=Game.Opening.choices[:2], default=Game.Opening.STANDARD
    )
    # The games' time control: days_per_turn, clock_kind, clock_increment (seconds),
    # weekend_pause (clocks.models.TimeControlFields; read as tournament.time_control).
    rated = models.BooleanField(_("rated"), default=True)
    registration_opens = models.DateTimeField(_("registration opens"), null=True, blank=True)
    # The scheduled start also closes registration; the beat task starts it then.
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    max_players = models.PositiveIntegerField(
        _("player limit"), null=True, blank=True, validators=[MinValueValidator(2)]
    )
    bye_points = models.PositiveSmallIntegerField(
        _("bye points"), choices=ByePoints.choices, default=ByePoints.ONE
    )
    # Comma-separated FIDE acronyms (tournaments.pairing.TIEBREAK_NAMES), in order.
    tiebreaks = models.CharField(_("tie-breaks"), max_length=64, blank=True)
    all_at_once = models.BooleanField(
        _("start all games at once"),
        default=False,
        help_text=_("Round robin only: every round's games start with the tournament."),
    )
    allow_bots = models.BooleanField(_("bots may join"), default=False)
    late_entries = models.BooleanField(
        _("late entries"),
        default=True,
        help_text=_(
            "Swiss only: players may join until half the rounds are paired; the rounds "
            "they missed count as zero-point byes."
        ),
    )
    # Swiss: the pairing system and, for Dutch, the version of its rules (the rules a
    # Swiss started with stay its rules: tournaments from before 2026 keep "2017").
    pairing_system = models.CharField(
        _("pairing system"), max_length=10, choices=PairingSystem.choices, default="dutch"
    )
    pairing_rules = models.CharField(
        _("pairing rules"), max_length=4, choices=PairingRules.choices, default="2026"
    )
    half_point_byes = models.PositiveSmallIntegerField(
        _("half-point byes per player"),
        default=1,
        help_text=_(
            "Swiss only: byes worth half a point that a player may ask for, each for a "
            "round not yet paired and not the last one."
        ),
    )
    # Arbiter control (tournaments.arbiter): Swiss rounds wait as drafts for the organiser
    # to check, edit and publish; and players who gave the same club never meet.
    arbiter_publishes = models.BooleanField(_("arbiter publishes rounds"), default=False)
    avoid_same_club = models.BooleanField(
        _("avoid pairing players of the same club"), default=False
    )
    tie_rule = models.CharField(
        _("drawn match"), max_length=8, choices=TieRule.choices, default=TieRule.REPLAY
    )
    status = models.CharField(
        _("status"),
        max_length=12,
        choices=Status.choices,
        default=Status.REGISTRATION,
        db_index=True,
    )
    # The last round paired (0 before the start). The pairing service claims round n+1
    # with UPDATE … WHERE current_round = n: a round is paired exactly once.
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # When the start was asked for: the heartbeat queues the start job again if it is
    # still "starting" long after (its message lost).
    start_requested = models.DateTimeField(_("start requested"), null=True, blank=True)
    # Why the last start failed (the start job's refusal, in English; shown translated).
    start_error = models.CharField(_("start error"), max_length=300, blank=True)
    started = models.DateTimeField(_("started"), null=True, blank=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        permissions = [("organise_tournament", _("Can organise tournaments"))]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(format="swiss") | models.Q(rounds__gte=1),
                name="tournament_swiss_has_rounds",
            ),
        ]

    def __str__(self) -> str:
        return self.shown_name

    @property
    def shown_name(self) -> str:
        """The name pages show: a league division's, stored in English, in the reader's
        language; any other as its organiser wrote it."""
        return shown_tournament_name(self.name)

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", kwargs={"tournament_id": self.pk})

    @property
    def late_entry_rounds(self) -> int:
        """Swiss with late entries: players may join while fewer rounds than this are
        paired (half the rounds, as on lichess); 0 otherwise."""
        if self.format != self.Format.SWISS or not self.late_entries or not self.rounds:
            return 0
        return (self.rounds + 1) // 2

    @property
    def is_over(self) -> bool:
        """Finished or cancelled: nothing about it changes any more."""
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)

    @property
    def is_round_robin(self) -> bool:
        return self.format in (self.Format.ROUND_ROBIN, self.Format.DOUBLE_ROUND_ROBIN)

    @property
    def tiebreak_list(self) -> list[str]:
        return [name for name in self.tiebreaks.split(",") if name]


class Participant(models.Model):
    """A registration; from the start on, a player with a starting rank (``seed``)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="participants"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="tournament_entries",
        verbose_name=_("player"),
    )
    # Starting rank 1..n (rating, then name), set when the tournament starts; a late
    # entrant gets the next number when joining.
    seed = models.PositiveIntegerField(_("starting rank"), null=True, blank=True)
    # Rating at the start (TRF and the initial order); the profile's rating moves on.
    rating = models.PositiveIntegerField(_("rating"), default=0)
    joined = models.DateTimeField(_("joined"), auto_now_add=True)
    withdrawn = models.DateTimeField(_("withdrawn"), null=True, blank=True)
    # Rounds 1..withdrawn_after_round keep their results; later ones are never paired.
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # Swiss: left out of the next rounds (zero-point bye) until cleared by the organiser.
    absent = models.BooleanField(_("absent"), default=False)
    # Given at join (free text); with Tournament.avoid_same_club, one club's players never meet.
    club = models.CharField(_("club"), max_length=80, blank=True)

    class Meta:
        ordering = ["tournament", "seed", "joined", "id"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="participant_unique_tournament_user"
            ),
            models.UniqueConstraint(
                fields=["tournament", "seed"], name="participant_unique_tournament_seed"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user.get_username()} @ {self.tournament_id}"


class ByeRequest(models.Model):
    """A Swiss player's request to sit out one round for half a point (TRF ``H``): the
    round's pairing leaves them out and writes their bye board."""

    participant = models.ForeignKey(
        Participant, on_delete=models.CASCADE, related_name="bye_requests"
    )
    round_number = models.PositiveSmallIntegerField(_("round"))
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["participant", "round_number"]
        verbose_name = _("half-point bye request")
        verbose_name_plural = _("half-point bye requests")
        constraints = [
            models.UniqueConstraint(
                fields=["participant", "round_number"], name="bye_request_unique_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.participant} — {self.round_number}"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    created = models.DateTimeField(_("paired"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            # Backs the guarded state change: a round exists once, whatever the tasks do.
            models.UniqueConstraint(
                fields=["tournament", "number"], name="round_unique_tournament_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — {self.number}"


class Pairing(models.Model):
    """One board of a round; ``black`` is None for the pairing-allocated bye.

    ``white_outcome`` / ``black_outcome`` are TRF result codes
    (``tournaments.pairing.Outcome`` values); blank while the game is on.
    After a pie opening the colours here are the ones actually played.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    board = models.PositiveSmallIntegerField(_("board"))
    white = models.ForeignKey(
        Participant, on_delete=models.CASCADE, related_name="pairings_as_white"
    )
    black = models.ForeignKey(
        Participant,
        on_delete=models.CASCADE,
        related_name="pairings_as_black",
        null=True,
        blank=True,
    )
    game = models.OneToOneField(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_pairing",
    )
    white_outcome = models.CharField(_("white's outcome"), max_length=1, blank=True)
    black_outcome = models.CharField(_("black's outcome"), max_length=1, blank=True)

    class Meta:
        ordering = ["round", "board"]
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="pairing_unique_round_board"),
        ]

    def __str__(self) -> str:
        black = self.black.user.get_username() if self.black is not None else _("bye")
        return f"{self.round} #{self.board}: {self.white.user.get_username()} – {black}"

    @property
    def is_bye(self) -> bool:
        return self.black_id is None

    @property
    def is_finished(self) -> bool:
        return bool(self.white_outcome)

    @property
    def result_display(self) -> str:
        """``1–0``, ``½–½``, ``+–−`` (forfeit), ``*`` while playing; bye boards show their code."""
        if not self.white_outcome:
            return "*"
        if self.black_id is None:
            return _SHOWN.get(self.white_outcome, self.white_outcome)
        return f"{_SHOWN[self.white_outcome]}–{_SHOWN[self.black_outcome]}"


_SHOWN = {"1": "1", "=": "½", "0": "0", "+": "+", "-": "−", "U": "U", "Z": "0", "H": "½", "F": "1"}


# --- Arbiter control (tournaments.arbiter, tournaments.trf_import) -------------------------


class ForbiddenPair(models.Model):
    """Two players the organiser keeps apart: the Swiss pairer never pairs them (C.04 absolute
    criterion, TRF ``XXP``); the round robin's fixed tables ignore them."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="forbidden_pairs"
    )
    first = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        verbose_name = _("forbidden pair")
        verbose_name_plural = _("forbidden pairs")
        constraints = [
            # Stored with first.pk < second.pk (the service orders them): a pair is listed once.
            models.UniqueConstraint(
                fields=["tournament", "first", "second"], name="forbidden_pair_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(first__lt=models.F("second")), name="forbidden_pair_ordered"
            ),
        ]


class DraftRound(models.Model):
    """A Swiss round paired but not published (``Tournament.arbiter_publishes``).

    ``boards`` is ``[[white seed, black seed or null], ...]`` in board order, the bye last;
    ``half_point_byes`` the seeds that asked to sit the round out (they get their boards at
    the publication).  Publishing creates the Round, its boards and games, and deletes this.
    """

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="draft_round"
    )
    number = models.PositiveSmallIntegerField(_("round"))
    boards = models.JSONField(default=list)
    half_point_byes = models.JSONField(default=list)
    # Set when the organiser asks to publish: the job does it, the page says "publishing".
    publishing = models.BooleanField(default=False)
    created = models.DateTimeField(_("paired"), auto_now_add=True)
    edited = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("draft round")
        verbose_name_plural = _("draft rounds")


class TrfImport(models.Model):
    """An uploaded TRF-16 file and the job that turns it into a Swiss tournament."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        DONE = "done", _("Imported")
        FAILED = "failed", _("Failed")

    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="trf_imports"
    )
    text = models.TextField()
    name = models.CharField(_("name"), max_length=120, blank=True)
    # Match TRF names to existing usernames (else every player is an imported name).
    match_users = models.BooleanField(_("match players to accounts"), default=False)
    arbiter_publishes = models.BooleanField(_("arbiter publishes rounds"), default=False)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    error_line = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    tournament = models.ForeignKey(
        Tournament, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("TRF import")
        verbose_name_plural = _("TRF imports")


class SeatInvitation(models.Model):
    """A TRF import asked to match players to accounts, and a player's name is an
    account's: that account's owner is asked whether it is them.  The place stays the
    imported player's (``Name@imported``) until the owner accepts; then the account
    takes it (the results so far and the next pairings: tournaments.trf_import).
    Nobody is put in a tournament without their own click."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    participant = models.OneToOneField(
        Participant, on_delete=models.CASCADE, related_name="invitation"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="tournament_invitations",
        verbose_name=_("invited account"),
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PENDING
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    answered = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("invitation to an imported place")
        verbose_name_plural = _("invitations to imported places")
        indexes = [models.Index(fields=["user", "status"], name="seat_invitation_user_status")]

    def __str__(self) -> str:
        return f"{self.user_id} → {self.participant}"


# --- Championship leagues (tournaments.leagues) -----------------------------------------


class League(TimeControlFields):
    """A championship league: seasons of divisions, each division a round robin with all
    its games at once; between seasons the top ``promote`` go up, the bottom ones down."""

    name = models.CharField(_("name"), max_length=120)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="organised_leagues",
        verbose_name=_("organiser"),
    )
    division_size = models.PositiveSmallIntegerField(
        _("division size"), default=6, validators=[MinValueValidator(2)]
    )
    promote = models.PositiveSmallIntegerField(
        _("promoted and relegated"), default=1, validators=[MinValueValidator(1)]
    )
    opening = models.CharField(
        _("opening"), max_length=8, choices=Game.Opening.choices[:2], default=Game.Opening.STANDARD
    )
    rated = models.BooleanField(_("rated"), default=True)
    allow_bots = models.BooleanField(_("bots may join"), default=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:league", kwargs={"league_id": self.pk})


class LeagueMember(models.Model):
    """A player of a league; ``left`` players are not in the next season."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="league_memberships",
        verbose_name=_("player"),
    )
    joined = models.DateTimeField(_("joined"), auto_now_add=True)
    left = models.DateTimeField(_("left"), null=True, blank=True)

    class Meta:
        ordering = ["league", "joined", "id"]
        verbose_name = _("league player")
        verbose_name_plural = _("league players")
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="league_member_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user.get_username()} @ {self.league}"


class Season(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField(_("season"))
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.RUNNING
    )
    started = models.DateTimeField(_("started"), auto_now_add=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["league", "-number"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            # Backs the rollover: season n+1 is created once, whatever the tasks do.
            models.UniqueConstraint(fields=["league", "number"], name="season_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.league} — {self.number}"

    def get_absolute_url(self) -> str:
        return reverse(
            "tournaments:season", kwargs={"league_id": self.league_id, "number": self.number}
        )


class Division(models.Model):
    """One division of a season: a round-robin tournament (level 1 is the top)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    level = models.PositiveSmallIntegerField(_("division"))
    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="division")

    class Meta:
        ordering = ["season", "level"]
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        constraints = [
            models.UniqueConstraint(fields=["season", "level"], name="division_unique_level"),
        ]

    def __str__(self) -> str:
        return f"{self.season} — {self.level}"
