"""Vacation and clock preferences: the clocks app's domain operations on profiles.

Lock order, everywhere: the player's Profile row first, then Game rows (in id
order).  A vacation change locks the profile and sends ``clocks.signals``
(``vacation_started`` / ``vacation_ended``) inside its transaction: the games app
stops or restarts that player's game clocks then (games.timekeeping), under the
same profile lock.  Timeouts and the sweeper need games: games.timekeeping.

Every function takes `now` (default: the real time) so tests can drive the clocks.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Profile, TurnEmail
from clocks import signals
from clocks.arithmetic import DAY, is_time_zone
from clocks.errors import NoVacationDays
from core.errors import InvalidInput

logger = logging.getLogger(__name__)

MAX_VACATION_DAYS = 366  # the longest vacation a player may ask for at once: a (leap) year


def vacation_days_per_year() -> int:
    return int(getattr(settings, "CLOCKS_VACATION_DAYS_PER_YEAR", 14))


def _now(now: dt.datetime | None) -> dt.datetime:
    return now or timezone.now()


def locked_profile(user_id: int) -> Profile:
    """The player's profile row, locked (the first lock of every clock change)."""
    return Profile.objects.select_for_update().get(user_id=user_id)


def refill_allowance(profile: Profile, now: dt.datetime) -> None:
    """A new calendar year (UTC) brings a fresh vacation allowance (not saved)."""
    if profile.vacation_year != now.year:
        profile.vacation_year = now.year
        profile.vacation_days_left = vacation_days_per_year()


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


def may_take_auto_vacation(profile: Profile) -> bool:
    """Would a clock running out start a one-day vacation (refill_allowance first)?"""
    return (
        profile.auto_vacation
        and profile.vacation_started is None
        and profile.vacation_days_left >= 1
    )


def begin_vacation(profile: Profile, *, now: dt.datetime, until: dt.datetime) -> None:
    """Start a vacation on a locked profile; the player's clocks stop (vacation_started)."""
    profile.vacation_started = now
    profile.vacation_until = until
    profile.save(
        update_fields=["vacation_started", "vacation_until", "vacation_days_left", "vacation_year"]
    )
    signals.vacation_started.send(sender=Profile, profile=profile, now=now)


def take_vacation(
    *, user: User, days: int | None = None, now: dt.datetime | None = None
) -> Vacation:
    """Go on vacation now for `days` days (default: all the days left this year).

    All the player's clocks stop, except in games that do not allow vacation
    (tournaments may forbid it).  Already on vacation: `days` moves the planned end.
    Each started day is charged when the vacation ends.
    """
    now = _now(now)
    with transaction.atomic():
        profile = locked_profile(user.pk)
        refill_allowance(profile, now)
        if profile.vacation_days_left < 1:
            raise NoVacationDays()
        if days is None:
            days = profile.vacation_days_left
        if not isinstance(days, int) or isinstance(days, bool) or days < 1:
            message = _("Vacation is taken in whole days, at least one.")
            raise InvalidInput(message, fields={"days": [message]})
        if days > profile.vacation_days_left:
            # Valid input, but more than this player has left: a conflict with the state.
            raise NoVacationDays(
                _("You have only %(left)d vacation days left this year.")
                % {"left": profile.vacation_days_left},
                days_left=profile.vacation_days_left,
            )
        if profile.vacation_started is not None:
            profile.vacation_until = profile.vacation_started + dt.timedelta(days=days)
            profile.vacation_until = max(now, profile.vacation_until)
            profile.save(update_fields=["vacation_until", "vacation_days_left", "vacation_year"])
        else:
            begin_vacation(profile, now=now, until=now + dt.timedelta(days=days))
        return vacation_of(profile, now)


def days_charged(started: dt.datetime, ended: dt.datetime) -> int:
    """Vacation days a stay from `started` to `ended` costs: each started day, at least one."""
    return max(1, math.ceil((ended - started).total_seconds() / DAY))


def end_vacation(*, user: User, now: dt.datetime | None = None) -> Vacation:
    """Come back: charge the days used and restart the clocks that were stopped.

    A vacation that reached its planned end is closed at that end (the sweeper
    may notice it a minute late; the clocks restart from the planned end).
    Not on vacation: nothing happens.
    """
    now = _now(now)
    with transaction.atomic():
        profile = locked_profile(user.pk)
        refill_allowance(profile, now)
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
        signals.vacation_ended.send(sender=Profile, profile=profile, ended=ended)
        logger.info("user %s back from vacation: %s day(s) charged", user.pk, charged)
        return vacation_of(profile, now)


def end_due_vacations(*, now: dt.datetime | None = None) -> int:
    """End every vacation whose planned end has passed (the sweeper's first step)."""
    now = _now(now)
    ended = 0
    for user_id in Profile.objects.filter(vacation_until__lte=now).values_list(
        "user_id", flat=True
    ):
        profile = Profile.objects.select_related("user").get(user_id=user_id)
        before = profile.vacation_started
        after = end_vacation(user=profile.user, now=now)
        ended += before is not None and not after.on_vacation
    return ended


# --- Preferences -----------------------------------------------------------------------------


def update_preferences(
    *,
    user: User,
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
        raise InvalidInput(fields=fields)
    with transaction.atomic():
        profile = locked_profile(user.pk)
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
