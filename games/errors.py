"""Domain errors raised by games.services.

Each has a stable machine-readable ``code`` (part of the API contract) and a
human-readable, translatable message.  ``HTTP_STATUS`` below gives their statuses to the
one exception handler (core.api.errors, registered by GamesConfig.ready); services
never think in HTTP.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import status

# The bases live in core; games' callers reach them as errors.DomainError / InvalidInput.
from core.errors import DomainError, InvalidInput

# --- 403: who you are ------------------------------------------------------------


class NotAPlayer(DomainError):
    code = "not_a_player"
    default_message = _("You are not a player in this game.")


class NotYourChallenge(DomainError):
    code = "not_your_challenge"
    default_message = _("This challenge is not addressed to you.")


class NotWaiting(DomainError):
    """Conditional turns are prepared by the player who waits, not the one to move."""

    code = "not_waiting"
    default_message = _(
        "Only the player waiting for the opponent's turn can set conditional turns."
    )


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


class NoDrawOffer(DomainError):
    code = "no_draw_offer"
    default_message = _("No draw offer stands in this game.")


class AbortTooLate(DomainError):
    code = "abort_too_late"
    default_message = _(
        "A game can be aborted only before both players have made their first turn."
    )


class GameNotOver(DomainError):
    code = "game_not_over"
    default_message = _("A rematch can be asked for only once the game is over.")


class NoRematch(DomainError):
    """E.g. an imported game: its players are names from a file, not accounts."""

    code = "no_rematch"
    default_message = _("This game cannot be replayed as a rematch.")


# --- 400: the input is wrong -------------------------------------------------------


class UnknownPlayer(DomainError):
    code = "unknown_player"
    default_message = _("There is no player with this name.")


class InvalidSetup(DomainError):
    code = "invalid_setup"
    default_message = _("These cells cannot take the pie setup.")


# --- Conditional turns: one turn of one line is wrong (games.conditional) -----------
# Each names it: `line` and `index` (from 0) in the request, `turn`, and a `reason`.


class InvalidLineTurn(DomainError):
    code = "invalid_turn"  # as a turn's notation error (400) of POST …/turns
    default_message = _("A turn of a conditional line is not in the notation.")


class IllegalLineTurn(DomainError):
    code = "illegal_turn"  # as the engine's refusal (422) of POST …/turns
    default_message = _("A turn of a conditional line is not legal.")


class ConditionalConflict(DomainError):
    """Two lines answer the same opponent turn (after the same beginning) differently."""

    code = "conditional_conflict"
    default_message = _("Two lines give different replies to the same turn.")


HTTP_STATUS: dict[type[DomainError], int] = {
    NotAPlayer: status.HTTP_403_FORBIDDEN,
    NotYourChallenge: status.HTTP_403_FORBIDDEN,
    NotWaiting: status.HTTP_403_FORBIDDEN,
    StalePly: status.HTTP_409_CONFLICT,
    NotYourTurn: status.HTTP_409_CONFLICT,
    GameOver: status.HTTP_409_CONFLICT,
    WrongPhase: status.HTTP_409_CONFLICT,
    ChallengeClosed: status.HTTP_409_CONFLICT,
    OwnChallenge: status.HTTP_409_CONFLICT,
    NoDrawOffer: status.HTTP_409_CONFLICT,
    AbortTooLate: status.HTTP_409_CONFLICT,
    GameNotOver: status.HTTP_409_CONFLICT,
    NoRematch: status.HTTP_409_CONFLICT,
    UnknownPlayer: status.HTTP_400_BAD_REQUEST,
    InvalidSetup: status.HTTP_400_BAD_REQUEST,
    InvalidInput: status.HTTP_400_BAD_REQUEST,
    InvalidLineTurn: status.HTTP_400_BAD_REQUEST,
    IllegalLineTurn: status.HTTP_422_UNPROCESSABLE_ENTITY,
    ConditionalConflict: status.HTTP_422_UNPROCESSABLE_ENTITY,
}
