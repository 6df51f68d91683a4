"""The analysis app's domain errors and their HTTP statuses (core.api.errors)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import status

from core.errors import DomainError


class GameNotFinished(DomainError):
    """Only finished games are analysed (an ongoing one would be a hint to its players)."""

    code = "game_not_finished"
    default_message = _("Only finished games can be analysed.")


class InvalidPosition(DomainError):
    """A position string the engine cannot read; the message is the engine's reason."""

    code = "invalid_position"  # as the engine's own error everywhere else (core.api.errors)
    default_message = _("This is not a position string.")


HTTP_STATUS: dict[type[DomainError], int] = {
    GameNotFinished: status.HTTP_409_CONFLICT,
    InvalidPosition: status.HTTP_400_BAD_REQUEST,
}


def register() -> None:
    from core.api.errors import register_statuses

    register_statuses(HTTP_STATUS)
