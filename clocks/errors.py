"""Domain errors of the clocks (their HTTP statuses: ClocksConfig.ready)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import status

from core.errors import DomainError


class TimeExpired(DomainError):
    """The mover's clock ran out before the turn arrived (409, like game_over).

    Not a games.errors.GameOver (clocks sit below games): code that skips a turn
    when the game is over catches both.
    """

    code = "time_expired"
    default_message = _("Your time has run out: the turn came after the deadline.")


class NoVacationDays(DomainError):
    code = "no_vacation_days"
    default_message = _("You have no vacation days left this year.")


HTTP_STATUS: dict[type[DomainError], int] = {
    TimeExpired: status.HTTP_409_CONFLICT,
    NoVacationDays: status.HTTP_409_CONFLICT,
}
