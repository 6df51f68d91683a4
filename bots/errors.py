"""Domain errors of bots and bot matches."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import status

from core.errors import DomainError


class UnknownBot(DomainError):
    code = "unknown_bot"
    default_message = _("There is no built-in bot with this name.")


class TooManyBotMatches(DomainError):
    code = "too_many_bot_matches"
    default_message = _("You have too many bot matches running; wait until one finishes.")


class HasPlayedGames(DomainError):
    code = "has_played_games"
    default_message = _(
        "This account has played games as a human, so it cannot become a bot account."
    )


# (The clocks' errors, time_expired and no_vacation_days, are in clocks.errors.)


class NotYourBotMatch(DomainError):
    code = "not_your_bot_match"
    default_message = _("Only the player who started this bot match (or staff) can stop it.")


HTTP_STATUS: dict[type[DomainError], int] = {
    UnknownBot: status.HTTP_400_BAD_REQUEST,
    TooManyBotMatches: status.HTTP_429_TOO_MANY_REQUESTS,
    HasPlayedGames: status.HTTP_409_CONFLICT,
    NotYourBotMatch: status.HTTP_403_FORBIDDEN,
}
