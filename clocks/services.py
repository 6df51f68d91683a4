"""Vacation, timeouts and the clock sweeper: domain operations of the clocks app.

Lock order, everywhere: the player's Profile row first, then Game rows (in id
order).  Vacation changes lock a profile and then pause or resume that player's
games; a timeout locks the loser's profile (auto-vacation may spend a day) and
then claims the game with ``UPDATE … SET deadline = NULL WHERE deadline <= now``.
play_turn takes only the game lock and checks the deadline under it, so a turn
and a timeout of the same game are serialised by the game row: whichever comes
second sees the other's result (a new deadline, or a finished game).

Every function takes `now` (default: the real time) so tests can drive the clocks.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Profile, TurnEmail
from clocks import state
from clocks.arithmetic import DAY, is_time_zone
from games import errors
from games.models import Color, Game
from notifications.models import Kind

logger = logging.getLogger(__name__)

LOW_TIME = dt.timedelta(hours=24)


def vacation_days_per_year() -> int:
    return int(getattr(settings, "CLOCKS_VACATION_DAYS_PER_YEAR", 14))


def _now(now: dt.datetime | None) -> dt.datetime:
    return now or timezone.now()


def _locked_profile(user_id: int) -> Profile:
    return Profile.objects.select_for_update().get(user_id=user_id)


def _refill_allowance(profile: Profile, now: dt.datetime) -> None:
    """A new calendar year (UTC) brings a fresh vacation allowance."""
    if profile.vacation_year != now.year:
        profile.vacation_year = now.year
        profile.vacation_days_left = vacation_days_per_year()


def _games_of(user_id: int) -> Any:
    """The player's running games, locked in id order (callers hold the profile lock)."""
    return (
        Game.objects.select_for_update()
        .filter(Q(white_id=user_id) | Q(black_id=user_id), status__in=state.RUNNING)
        .order_by("pk")
    )


# --- Vacation -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Vacation:
    on_vacation: bool
    started: dt.datetime | None
    until: dt.datetime | None
    days_left: int
    days_per_year: int


def vacation_of(profile: Profile, now: dt.datetime | None = None) -> Vacation:
    now = _now(now)
    days_left = (
        profile.vacation_days_left
        if profile.vacation_year == now.year
        else vacation_days_per_year()
    )
    return Vacation(
        on_vacation=profile.vacation_started is not None,
        started=profile.vacation_started,
        until=profile.vacation_until,
        days_left=days_left,
        days_per_year=vacation_days_per_year(),
    )


def _begin_vacation(profile: Profile, *, now: dt.datetime, until: dt.datetime) -> None:
    profile.vacation_started = now
    profile.vacation_until = until
    profile.save(
        update_fields=["vacation_started", "vacation_until", "vacation_days_left", "vacation_year"]
    )
    for game in _games_of(profile.user_id):
        if game.vacation_allowed and game.who_must_act() == profile.user_id:
            state.stop_clock(game=game, now=now)
            game.save(update_fields=[*state.CLOCK_FIELDS, "updated"])


def take_vacation(
    *, user: AbstractBaseUser, days: int | None = None, now: dt.datetime | None = None
) -> Vacation:
    """Go on vacation now for `days` days (default: all the days left this year).

    All the player's clocks stop, except in games that do not allow vacation
    (tournaments may forbid it).  Already on vacation: `days` moves the planned end.
    Each started day is charged when the vacation ends.
    """
    now = _now(now)
    with transaction.atomic():
        profile = _locked_profile(user.pk)
        _refill_allowance(profile, now)
        if profile.vacation_days_left < 1:
            raise errors.NoVacationDays()
        if days is None:
            days = profile.vacation_days_left
        if not isinstance(days, int) or isinstance(days, bool) or days < 1:
            message = _("Vacation is taken in whole days, at least one.")
            raise errors.InvalidInput(message, fields={"days": [message]})
        if days > profile.vacation_days_left:
            # Valid input, but more than this player has left: a conflict with the state.
            raise errors.NoVacationDays(
                _("You have only %(left)d vacation days left this year.")
                % {"left": profile.vacation_days_left},
                days_left=profile.vacation_days_left,
            )
        if profile.vacation_started is not None:
            profile.vacation_until = profile.vacation_started + dt.timedelta(days=days)
            profile.vacation_until = max(now, profile.vacation_until)
            profile.save(update_fields=["vacation_until", "vacation_days_left", "vacation_year"])
        else:
            _begin_vacation(profile, now=now, until=now + dt.timedelta(days=days))
        return vacation_of(profile, now)


def days_charged(started: dt.datetime, ended: dt.datetime) -> int:
    """Vacation days a stay from `started` to `ended` costs: each started day, at least one."""
    return max(1, math.ceil((ended - started).total_seconds() / DAY))


def end_vacation(*, user: AbstractBaseUser, now: dt.datetime | None = None) -> Vacation:
    """Come back: charge the days used and restart the clocks that were stopped.

    A vacation that reached its planned end is closed at that end (the sweeper
    may notice it a minute late; the clocks restart from the planned end).
    Not on vacation: nothing happens.
    """
    now = _now(now)
    with transaction.atomic():
        profile = _locked_profile(user.pk)
        _refill_allowance(profile, now)
        started = profile.vacation_started
        if started is None:
            profile.save(update_fields=["vacation_days_left", "vacation_year"])
            return vacation_of(profile, now)
        ended = min(now, profile.vacation_until or now)
        charged = min(profile.vacation_days_left, days_charged(started, ended))
        profile.vacation_days_left -= charged
        profile.vacation_started = None
        profile.vacation_until = None
        profile.save(
            update_fields=[
                "vacation_started",
                "vacation_until",
                "vacation_days_left",
                "vacation_year",
            ]
        )
        for game in _games_of(profile.user_id):
            if (
                game.vacation_allowed
                and game.clock_since is None
                and game.who_must_act() == profile.user_id
            ):
                state.start_clock(game=game, now=ended, profile=profile)
                game.save(update_fields=[*state.CLOCK_FIELDS, "updated"])
        logger.info("user %s back from vacation: %s day(s) charged", user.pk, charged)
        return vacation_of(profile, now)


# --- Preferences -----------------------------------------------------------------------------


def update_preferences(
    *,
    user: AbstractBaseUser,
    time_zone: str | None = None,
    auto_vacation: bool | None = None,
    email_notifications: bool | None = None,
    turn_email: str | None = None,
) -> Profile:
    """Change the clock and email preferences given (None: unchanged).

    A new time zone applies from the player's next turn: a running clock keeps
    the zone its deadline was computed in.
    """
    fields: dict[str, list[str]] = {}
    if time_zone is not None and not is_time_zone(time_zone):
        fields["time_zone"] = [
            _("Unknown time zone %(zone)s: use an IANA name like Europe/Moscow.")
            % {"zone": time_zone}
        ]
    if turn_email is not None and turn_email not in TurnEmail.values:
        fields["turn_email"] = [_("Choose each or digest.")]
    if fields:
        raise errors.InvalidInput(fields=fields)
    with transaction.atomic():
        profile = _locked_profile(user.pk)
        changes = {
            "time_zone": time_zone,
            "auto_vacation": auto_vacation,
            "email_notifications": email_notifications,
            "turn_email": turn_email,
        }
        changed = [name for name, value in changes.items() if value is not None]
        for name in changed:
            setattr(profile, name, changes[name])
        if changed:
            profile.save(update_fields=changed)
    return profile


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
        profile = _locked_profile(loser_id)  # lock order: profile, then game
        claimed = Game.objects.filter(
            pk=game_id, status__in=state.RUNNING, deadline__lte=now
        ).update(deadline=None)
        if not claimed:
            return Expiry.NOT_DUE
        game = Game.objects.select_for_update().select_related("white", "black").get(pk=game_id)
        color = game.color_to_act()
        if color is None or game.who_must_act() != loser_id:
            # Cannot happen: a turn would have moved the deadline.  Refuse to guess.
            raise RuntimeError(f"game {game_id}: clock owner changed under the claim")
        _refill_allowance(profile, now)
        if (
            game.vacation_allowed
            and profile.auto_vacation
            and profile.vacation_started is None
            and profile.vacation_days_left >= 1
        ):
            # Auto-vacation: a one-day vacation instead of a loss (all clocks stop).
            _begin_vacation(profile, now=now, until=now + dt.timedelta(days=1))
            from notifications.services import notify

            user = game.white if color == Color.WHITE else game.black
            notify(
                user=user,
                kind=Kind.AUTO_VACATION,
                game=game,
                params={"days_left": profile.vacation_days_left - 1},
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
        from games.services import finish_game

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


def _warn_low_time(now: dt.datetime) -> int:
    """Tell each mover once per turn that under 24 hours are left (if the turn had more)."""
    from notifications.models import Notification
    from notifications.services import notify, opponent_name

    due = (
        Game.objects.filter(
            status__in=state.RUNNING, deadline__gt=now, deadline__lte=now + LOW_TIME
        )
        .exclude(clock_since__isnull=True)
        .select_related("white", "black")
    )
    candidates: dict[str, tuple[Game, int]] = {}
    for game in due:
        assert game.deadline is not None and game.clock_since is not None
        user_id = game.who_must_act()
        if user_id is None or game.deadline - game.clock_since <= LOW_TIME:
            continue  # a one-day turn: the your-turn notification said it all
        key = f"low_time:{game.pk}:{game.status}:{game.ply}:{user_id}"
        candidates[key] = (game, user_id)
    # Warned already (an earlier sweep): skip without trying to insert again.
    for key in Notification.objects.filter(
        kind=Kind.LOW_TIME, dedupe_key__in=list(candidates)
    ).values_list("dedupe_key", flat=True):
        candidates.pop(key, None)
    warned = 0
    for key, (game, user_id) in candidates.items():
        user = game.white if user_id == game.white_id else game.black
        with transaction.atomic():
            # The unique (user, dedupe_key) still decides between two racing sweepers.
            created = notify(
                user=user,
                kind=Kind.LOW_TIME,
                game=game,
                params={"opponent": opponent_name(game, user_id)},
                dedupe_key=key,
                now=now,
            )
        warned += created is not None
    return warned


def sweep(*, now: dt.datetime | None = None) -> SweepReport:
    """The beat task's work: end due vacations, expire due clocks, warn low clocks.

    Safe to run concurrently with itself (two beat schedulers, several workers):
    each step claims its rows atomically.  One bad game is logged and skipped.
    """
    now = _now(now)
    report = SweepReport()
    for user_id in Profile.objects.filter(vacation_until__lte=now).values_list(
        "user_id", flat=True
    ):
        profile = Profile.objects.select_related("user").get(user_id=user_id)
        before = profile.vacation_started
        after = end_vacation(user=profile.user, now=now)
        report.vacations_ended += before is not None and not after.on_vacation
    due = Game.objects.filter(status__in=state.RUNNING, deadline__lte=now).order_by("deadline")
    for game_id in due.values_list("pk", flat=True)[:1000]:
        try:
            report.outcomes[game_id] = expire_game(game_id=game_id, now=now)
        except Exception:  # one broken game must not stop the others
            logger.exception("clock sweep: game %s", game_id)
            report.errors.append(game_id)
    report.warned = _warn_low_time(now)
    return report
