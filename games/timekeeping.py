"""Timeouts, the clock sweeper and vacation on game rows: the clocks of real games.

clocks/ has the time control, the clock arithmetic and the vacation accounting on
profiles; this module is what needs Game rows:

* the receivers of ``clocks.signals.vacation_started`` / ``vacation_ended`` stop and
  restart the player's game clocks (games that allow vacation);
* ``expire_game`` ends a game whose clock ran out (or spends an automatic vacation
  day), ``sweep`` does it for every due game each minute (games.tasks.sweep_clocks),
  and warns movers running low; ``fast_forward`` runs a clock out for demos.

Notifications hear about it through ``games.signals`` (auto_vacation,
time_running_low, game_finished): games never imports notifications.

Lock order, everywhere: the player's Profile row first, then Game rows (in id
order).  A timeout locks the loser's profile (auto-vacation may spend a day) and
then claims the game with ``UPDATE … SET deadline = NULL WHERE deadline <= now``.
play_turn takes only the game lock and checks the deadline under it, so a turn
and a timeout of the same game are serialised by the game row: whichever comes
second sees the other's result (a new deadline, or a finished game).

Every function takes `now` (default: the real time) so tests can drive the clocks.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.dispatch import receiver
from django.utils import timezone

from accounts.models import Profile
from clocks import services as vacations
from clocks import signals as clock_signals
from clocks import state
from games import errors, signals
from games.models import Color, Game
from games.services import finish_game

logger = logging.getLogger(__name__)

RUNNING = (Game.Status.ACTIVE, Game.Status.SETUP)
LOW_TIME = dt.timedelta(hours=24)


def _now(now: dt.datetime | None) -> dt.datetime:
    return now or timezone.now()


def _games_of(user_id: int) -> Any:
    """The player's running games, locked in id order (callers hold the profile lock)."""
    return (
        Game.objects.select_for_update()
        .filter(Q(white_id=user_id) | Q(black_id=user_id), status__in=RUNNING)
        .order_by("pk")
    )


# --- Vacation: the player's game clocks stop and start again -----------------------------


@receiver(clock_signals.vacation_started)
def stop_clocks_for_vacation(
    sender: Any, profile: Profile, now: dt.datetime, **kwargs: Any
) -> None:
    for game in _games_of(profile.user_id):
        if game.vacation_allowed and game.who_must_act() == profile.user_id:
            state.stop_clock(game=game, now=now)
            game.save(update_fields=[*state.CLOCK_FIELDS, "updated"])


@receiver(clock_signals.vacation_ended)
def restart_clocks_after_vacation(
    sender: Any, profile: Profile, ended: dt.datetime, **kwargs: Any
) -> None:
    for game in _games_of(profile.user_id):
        if (
            game.vacation_allowed
            and game.clock_since is None
            and game.who_must_act() == profile.user_id
        ):
            state.start_clock(game=game, now=ended, profile=profile)
            game.save(update_fields=[*state.CLOCK_FIELDS, "updated"])


# --- Timeouts --------------------------------------------------------------------------------


class Expiry:
    NOT_DUE = "not_due"
    TIMEOUT = "timeout"
    ABANDONED = "abandoned"
    AUTO_VACATION = "auto_vacation"


def never_moved(game: Game) -> bool:
    """Has the player whose clock ran out never made a first turn?

    Pie games: placing the pieces or choosing the colour is that first turn, so
    only a setup that never finished counts.  Other games: White's turn 1 or
    Black's turn 2 was never played.
    """
    if game.status == Game.Status.SETUP:
        return True
    return game.opening != Game.Opening.PIE and game.ply < 2


def expire_game(*, game_id: int, now: dt.datetime | None = None) -> str:
    """End (or save by auto-vacation) a game whose clock ran out; once, whatever races it.

    The claim is ``UPDATE … SET deadline = NULL WHERE deadline <= now`` on the game
    row: of two sweepers, or a sweeper and a turn, exactly one wins.  A turn that
    committed first moved the deadline (nothing to claim); a turn that comes after
    finds the game finished or its deadline passed (play_turn refuses it).
    """
    now = _now(now)
    peek = Game.objects.filter(pk=game_id).first()
    if peek is None or peek.deadline is None or peek.deadline > now:
        return Expiry.NOT_DUE
    loser_id = peek.who_must_act()
    if loser_id is None:
        return Expiry.NOT_DUE
    with transaction.atomic():
        profile = vacations.locked_profile(loser_id)  # lock order: profile, then game
        claimed = Game.objects.filter(pk=game_id, status__in=RUNNING, deadline__lte=now).update(
            deadline=None
        )
        if not claimed:
            return Expiry.NOT_DUE
        game = Game.objects.select_for_update().select_related("white", "black").get(pk=game_id)
        color = game.color_to_act()
        if color is None or game.who_must_act() != loser_id:
            # Cannot happen: a turn would have moved the deadline.  Refuse to guess.
            raise RuntimeError(f"game {game_id}: clock owner changed under the claim")
        vacations.refill_allowance(profile, now)
        if game.vacation_allowed and vacations.may_take_auto_vacation(profile):
            # Auto-vacation: a one-day vacation instead of a loss (all clocks stop).
            vacations.begin_vacation(profile, now=now, until=now + dt.timedelta(days=1))
            signals.auto_vacation.send(
                sender=Game,
                game=game,
                user=game.white if color == Color.WHITE else game.black,
                days_left=profile.vacation_days_left - 1,
                now=now,
            )
            return Expiry.AUTO_VACATION
        profile.save(update_fields=["vacation_days_left", "vacation_year"])
        abandoned = never_moved(game)
        if color == Color.WHITE:
            game.white_clock = 0
        else:
            game.black_clock = 0
        update = ["white_clock", "black_clock", "clock_since"]
        game.clock_since = None
        if abandoned:
            game.rated = False  # aborted: unrated (tournaments score it as a forfeit)
            update.append("rated")
        game.save(update_fields=update)
        finish_game(
            game=game,
            result=Game.Result.BLACK_WINS if color == Color.WHITE else Game.Result.WHITE_WINS,
            termination=Game.Termination.ABANDONED if abandoned else Game.Termination.TIMEOUT,
        )
        return Expiry.ABANDONED if abandoned else Expiry.TIMEOUT


def fast_forward(*, game: Game, now: dt.datetime | None = None) -> Game:
    """Demo helper: the running clock is out of time now (the sweeper then acts).

    A clock stopped by vacation is fast-forwarded too: it reads zero and the
    deadline is now.
    """
    now = _now(now)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        color = game.color_to_act()
        if color is None:
            raise errors.GameOver()
        if color == Color.WHITE:
            game.white_clock = 0
        else:
            game.black_clock = 0
        game.clock_since = now
        game.deadline = now
        game.save(update_fields=[*state.CLOCK_FIELDS, "updated"])
    return game


# --- The sweeper -----------------------------------------------------------------------------


@dataclass
class SweepReport:
    vacations_ended: int = 0
    outcomes: dict[int, str] = field(default_factory=dict)
    warned: int = 0
    errors: list[int] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for outcome in self.outcomes.values():
            counts[outcome] = counts.get(outcome, 0) + 1
        return {
            "vacations_ended": self.vacations_ended,
            "games": {str(pk): outcome for pk, outcome in self.outcomes.items()},
            "counts": counts,
            "warned": self.warned,
            "errors": self.errors,
        }


@dataclass(frozen=True)
class LowTime:
    """A mover with under 24 hours left; `key` names this turn (warn once per turn)."""

    game: Game
    user_id: int
    key: str


def low_time(now: dt.datetime) -> list[LowTime]:
    """The movers to warn: under 24 hours left, on a turn that had more."""
    due = (
        Game.objects.filter(status__in=RUNNING, deadline__gt=now, deadline__lte=now + LOW_TIME)
        .exclude(clock_since__isnull=True)
        .select_related("white", "black")
    )
    found = []
    for game in due:
        assert game.deadline is not None and game.clock_since is not None
        user_id = game.who_must_act()
        if user_id is None or game.deadline - game.clock_since <= LOW_TIME:
            continue  # a one-day turn: the your-turn notification said it all
        key = f"low_time:{game.pk}:{game.status}:{game.ply}:{user_id}"
        found.append(LowTime(game=game, user_id=user_id, key=key))
    return found


def _warn_low_time(now: dt.datetime) -> int:
    warnings = low_time(now)
    if not warnings:
        return 0
    # Whatever the receivers return (Signal.send's stubs say str | None).
    answers: list[tuple[Any, Any]] = signals.time_running_low.send(
        sender=Game, warnings=warnings, now=now
    )
    return sum(answer for _receiver, answer in answers if isinstance(answer, int))


def sweep(*, now: dt.datetime | None = None) -> SweepReport:
    """The beat task's work: end due vacations, expire due clocks, warn low clocks.

    Safe to run concurrently with itself (two beat schedulers, several workers):
    each step claims its rows atomically.  One bad game is logged and skipped.
    """
    now = _now(now)
    report = SweepReport()
    report.vacations_ended = vacations.end_due_vacations(now=now)
    due = Game.objects.filter(status__in=RUNNING, deadline__lte=now).order_by("deadline")
    for game_id in due.values_list("pk", flat=True)[:1000]:
        try:
            report.outcomes[game_id] = expire_game(game_id=game_id, now=now)
        except Exception:  # one broken game must not stop the others
            logger.exception("clock sweep: game %s", game_id)
            report.errors.append(game_id)
    report.warned = _warn_low_time(now)
    return report
