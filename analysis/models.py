"""Computer analysis of finished games, and the opening explorer's index.

* :class:`GameAnalysis` — one per game: the analysis's state and node budget.
* :class:`AnalysedPosition` — the engine's verdict on the position after each ply
  (ply 0: the start), stored one by one as the job goes, so a job that is run again
  (a worker died) starts after the last stored ply.  The API's per-turn entries are
  derived from two neighbouring positions (analysis.services.turn_entries).
* :class:`ExplorerGame` — a finished game the explorer has indexed (once each).
* :class:`ExplorerEntry` — one row per (position reached, game, turn played from it):
  the filtered queries read these.
* :class:`ExplorerPosition` / :class:`ExplorerTurn` — running totals per position and
  per (position, turn), split by rated/imported: the unfiltered query (and the
  ``rated``/``imported`` filters) read a few rows of one index range, whatever the
  number of games stored.
* :class:`ExplorerPeriod` — the same totals per day and per calendar month, for the
  positions (per kind of game) that at least ``analysis.explorer.DATED_FROM`` games
  reached: a ``since``/``until`` query sums a few dozen periods there instead of
  grouping every game's entry (fewer games: their entries are few and grouped).

Positions are keyed by a 64-bit digest of the engine's canonical position string
(pieces, side to move, scores, board): analysis.services.position_key.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class GameAnalysis(models.Model):
    """A game's analysis; its job (core.jobs, kind ``analysis``, ``subject_id`` this row's
    id) holds the scheduling: place in line, slices, lease."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        # Its job failed (a worker lost again and again); asking again resumes it.
        FAILED = "failed", _("Failed")

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, related_name="analysis", verbose_name=_("game")
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("requested by"),
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.QUEUED
    )
    # The engine's node budget per position, fixed at request time: a resumed job
    # analyses its remaining positions exactly as the first run would have.
    nodes = models.PositiveIntegerField(_("nodes per position"))
    # Positions to analyse: the game's turns + 1 (the start).
    positions = models.PositiveIntegerField(_("positions"))
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} ({self.status})"


class AnalysedPosition(models.Model):
    analysis = models.ForeignKey(
        GameAnalysis, on_delete=models.CASCADE, related_name="rows", verbose_name=_("analysis")
    )
    ply = models.PositiveIntegerField(_("ply"))  # turns played before this position
    expected = models.FloatField(_("White's expected score"))
    best = models.CharField(_("best turn"), max_length=64, blank=True)  # "" once over
    pv = models.CharField(_("principal variation"), max_length=1024, blank=True)

    class Meta:
        ordering = ["analysis", "ply"]
        verbose_name = _("analysed position")
        verbose_name_plural = _("analysed positions")
        constraints = [
            models.UniqueConstraint(fields=["analysis", "ply"], name="analysedposition_unique_ply")
        ]

    def __str__(self) -> str:
        return f"{self.analysis_id}:{self.ply} {self.expected:.2f}"


class ExplorerGame(models.Model):
    """A game whose positions are in the explorer (its primary key is the game's)."""

    game = models.OneToOneField(
        "games.Game",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="+",
        verbose_name=_("game"),
    )
    indexed = models.DateTimeField(_("indexed"), auto_now_add=True)

    class Meta:
        verbose_name = _("explorer game")
        verbose_name_plural = _("explorer games")


class ExplorerEntry(models.Model):
    """A game reached a position and played `turn` from it ("" where it ended).

    The game's filter fields are copied here, so a filtered query reads one table.
    """

    key = models.BigIntegerField(_("position key"))
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="+", verbose_name=_("game")
    )
    turn = models.CharField(_("turn"), max_length=64, blank=True)
    # Turns played before the game first reached the position this way (its page's ?ply=).
    ply = models.PositiveSmallIntegerField(_("ply"))
    # No index of their own: the (white, key) and (black, key) indexes serve both.
    white = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        db_constraint=False,
        db_index=False,
    )
    black = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        db_constraint=False,
        db_index=False,
    )
    result = models.CharField(_("result"), max_length=8)
    rated = models.BooleanField(_("rated"))
    imported = models.BooleanField(_("imported"))
    finished = models.DateTimeField(_("finished"))

    class Meta:
        verbose_name = _("explorer entry")
        verbose_name_plural = _("explorer entries")
        constraints = [
            models.UniqueConstraint(
                fields=["key", "game", "turn"], name="explorerentry_unique_key_game_turn"
            )
        ]
        indexes = [
            models.Index(fields=["white", "key"], name="explorerentry_white_key"),
            models.Index(fields=["black", "key"], name="explorerentry_black_key"),
        ]


class ExplorerPosition(models.Model):
    """How many indexed games reached a position, and their results, per kind of game
    (rated or not, imported or not: at most four rows per position, so that those two
    filters read totals too)."""

    key = models.BigIntegerField(_("position key"))
    rated = models.BooleanField(_("rated"))
    imported = models.BooleanField(_("imported"))
    games = models.PositiveIntegerField(default=0)
    white = models.PositiveIntegerField(default=0)
    black = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    # Its games (of this kind) are also counted per day and month in ExplorerPeriod: set
    # by the indexing job that brings `games` to analysis.explorer.DATED_FROM.
    dated = models.BooleanField(_("counted by period"), default=False, db_default=False)

    class Meta:
        verbose_name = _("explorer position")
        verbose_name_plural = _("explorer positions")
        constraints = [
            models.UniqueConstraint(
                fields=["key", "rated", "imported"], name="explorerposition_unique_key_kind"
            )
        ]


class ExplorerTurn(models.Model):
    """How many indexed games played `turn` from a position, and their results, per kind
    of game (as ExplorerPosition)."""

    key = models.BigIntegerField(_("position key"))
    turn = models.CharField(_("turn"), max_length=64)
    rated = models.BooleanField(_("rated"))
    imported = models.BooleanField(_("imported"))
    games = models.PositiveIntegerField(default=0)
    white = models.PositiveIntegerField(default=0)
    black = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("explorer turn")
        verbose_name_plural = _("explorer turns")
        constraints = [
            models.UniqueConstraint(
                fields=["key", "turn", "rated", "imported"], name="explorerturn_unique_key_kind"
            )
        ]


class ExplorerPeriod(models.Model):
    """How many indexed games of a kind reached a position (`turn` "") or played `turn`
    from it, and their results, among the games that finished on one day or in one
    calendar month (days of settings.TIME_ZONE, as the ``since``/``until`` filters);
    kept only for the positions whose ExplorerPosition row is `dated`."""

    key = models.BigIntegerField(_("position key"))
    rated = models.BooleanField(_("rated"))
    imported = models.BooleanField(_("imported"))
    # True: the calendar month that `start` (its first day) begins; False: the day `start`.
    month = models.BooleanField(_("whole month"))
    start = models.DateField(_("start"))
    turn = models.CharField(_("turn"), max_length=64, blank=True)
    games = models.PositiveIntegerField(default=0)
    white = models.PositiveIntegerField(default=0)
    black = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("explorer period")
        verbose_name_plural = _("explorer periods")
        constraints = [
            # Also the query's index: one position's months (or days) in a date range.
            models.UniqueConstraint(
                fields=["key", "month", "start", "rated", "imported", "turn"],
                name="explorerperiod_unique",
            )
        ]
