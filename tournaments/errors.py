"""Domain errors of tournaments, with stable codes (part of the API contract).

They are ``games.errors.DomainError``s, so the platform's one API exception
handler answers them; ``HTTP_STATUS`` (registered by ``TournamentsConfig.ready``)
tells it which status each gets.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.errors import DomainError, InvalidInput


class NotOrganiser(DomainError):
    code = "not_organiser"
    default_message = _("Only the organiser (or staff) may do this.")


class CannotOrganise(DomainError):
    code = "cannot_organise"
    default_message = _("You need the permission to organise tournaments.")


class RegistrationClosed(DomainError):
    code = "registration_closed"
    default_message = _("Registration for this tournament is closed.")


class TournamentFull(DomainError):
    code = "tournament_full"
    default_message = _("This tournament has reached its player limit.")


class AlreadyJoined(DomainError):
    code = "already_joined"
    default_message = _("You have already joined this tournament.")


class NotJoined(DomainError):
    code = "not_joined"
    default_message = _("You are not a player in this tournament.")


class BotsNotAllowed(DomainError):
    code = "bots_not_allowed"
    default_message = _("The organiser has not admitted bot accounts to this tournament.")


class NotABot(DomainError):
    code = "not_a_bot"
    default_message = _("There is no bot account of that name.")


class WrongTournamentState(DomainError):
    """E.g. starting a tournament that is running, or withdrawing from a finished one."""

    code = "wrong_state"
    default_message = _("The tournament is not in the state this action needs.")


class ByeRefused(DomainError):
    """A half-point bye that cannot be granted (the message says why)."""

    code = "bye_refused"
    default_message = _("This half-point bye cannot be granted.")


class NotEnoughPlayers(DomainError):
    code = "not_enough_players"
    default_message = _("A tournament needs at least two players to start.")


class InvalidTournament(InvalidInput):
    """Bad settings for a new tournament (400, with ``fields``)."""

    code = "invalid"


class NoDraftRound(DomainError):
    """Arbiter control: no Swiss round is waiting to be published (or it is being published)."""

    code = "no_draft"
    default_message = _("No round is waiting to be published.")


class InvalidDraftEdit(InvalidInput):
    """An edit of a draft round that names no board or player of it (400)."""

    code = "invalid_edit"


class InvalidImport(InvalidInput):
    """A TRF upload that cannot even be queued: no file, too large, not text (400)."""

    code = "invalid_trf"


class NoInvitation(DomainError):
    """No invitation of that number for this account (someone else's is none either)."""

    code = "not_found"
    default_message = _("You have no such invitation.")


HTTP_STATUS: dict[type[DomainError], int] = {
    NotOrganiser: 403,
    CannotOrganise: 403,
    NotJoined: 403,
    BotsNotAllowed: 403,
    NotABot: 400,
    RegistrationClosed: 409,
    TournamentFull: 409,
    AlreadyJoined: 409,
    WrongTournamentState: 409,
    ByeRefused: 409,
    NotEnoughPlayers: 409,
    InvalidTournament: 400,
    NoDraftRound: 409,
    InvalidDraftEdit: 400,
    InvalidImport: 400,
    NoInvitation: 404,
}
