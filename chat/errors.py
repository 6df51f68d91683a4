"""Domain errors of game messages (statuses registered by ChatConfig.ready).

Who may not write (`not_a_player`, 403) and blocks (`blocked`, 403) are games' and
accounts' errors, raised here as they are: one code for one meaning.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import status

from core.errors import DomainError


class OwnMessage(DomainError):
    code = "own_message"
    default_message = _("You cannot report your own message.")


HTTP_STATUS: dict[type[DomainError], int] = {
    OwnMessage: status.HTTP_409_CONFLICT,
}
