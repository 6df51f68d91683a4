"""Domain errors raised by games.services.

Each has a stable machine-readable ``code`` (part of the API contract) and a
human-readable, translatable message.  games.api.errors maps them to HTTP
statuses in one place; services never think in HTTP.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _


class DomainError(Exception):
    code: str = "domain_error"
    default_message: Any = _("The request cannot be carried out.")

    def __init__(self, message: Any = None, **details: Any) -> None:
        self.message = message if message is not None else self.default_message
        # Extra JSON fields for the client, e.g. {"expected_ply": 5}.
        self.details = details
        super().__init__(str(self.message))


# --- 403: who you are ------------------------------------------------------------


class NotAPlayer(DomainError):
    code = "not_a_player"
    default_message = _("You are not a player in this game.")


class NotYourChallenge(DomainError):
    code = "not_your_challenge"
    default_message = _("This challenge is not addressed to you.")


# --- 409: the state does not allow it ---------------------------------------------


class StalePly(DomainError):
    code = "stale_ply"
    default_message = _("This ply is not the next one to be played.")


class NotYourTurn(DomainError):
    code = "not_your_turn"
    default_message = _("It is not your turn.")


class GameOver(DomainError):
    code = "game_over"
    default_message = _("The game is over.")


class WrongPhase(DomainError):
    """E.g. a turn while the pie setup is pending, or a setup in an active game."""

    code = "wrong_phase"
    default_message = _("The game is not in the phase this action needs.")


class ChallengeClosed(DomainError):
    code = "challenge_closed"
    default_message = _("This challenge is no longer open.")


class OwnChallenge(DomainError):
    code = "own_challenge"
    default_message = _("You cannot accept your own challenge.")


# --- 400: the input is wrong -------------------------------------------------------


class InvalidInput(DomainError):
    code = "invalid"
    default_message = _("Invalid input.")


class UnknownPlayer(DomainError):
    code = "unknown_player"
    default_message = _("There is no player with this name.")


class InvalidSetup(DomainError):
    code = "invalid_setup"
    default_message = _("These cells cannot take the pie setup.")


class AccountExists(DomainError):
    code = "username_taken"
    default_message = _("This username is taken.")


class WeakPassword(DomainError):
    code = "weak_password"
    default_message = _("This password is too weak.")


class BadCredentials(DomainError):
    code = "bad_credentials"
    default_message = _("Wrong username or password.")


# --- Bots (bots.services) ----------------------------------------------------------


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


# --- Clocks and vacation (clocks app) ------------------------------------------------


class TimeExpired(GameOver):
    """The mover's clock ran out before the turn arrived (409, like game_over)."""

    code = "time_expired"
    default_message = _("Your time has run out: the turn came after the deadline.")


class NoVacationDays(DomainError):
    code = "no_vacation_days"
    default_message = _("You have no vacation days left this year.")


class NotYourBotMatch(DomainError):
    code = "not_your_bot_match"
    default_message = _("Only the player who started this bot match (or staff) can stop it.")
