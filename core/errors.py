"""The base of every domain error, and the generic ones any app may raise.

A domain error has a stable machine-readable ``code`` (part of the API contract) and a
human-readable, translatable message.  Services never think in HTTP: each app tells
``core.api.errors`` which status its errors get (``register_statuses``), and the one
exception handler there turns them into answers.
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


class InvalidInput(DomainError):
    """400: the input is wrong; ``fields`` (a detail) names the fields and their problems."""

    code = "invalid"
    default_message = _("Invalid input.")


class Busy(DomainError):
    """A job refused (core.jobs): its owner's cap, or its kind's backlog, is full.  The
    ``retry_after`` detail (seconds) becomes the ``Retry-After`` header too."""

    code = "busy"
    default_message = _("The server is busy; try again later.")


class OwnerBusy(Busy):
    """429: the owner's jobs of this kind waiting or running reach the per-owner cap."""


class QueueFull(Busy):
    """503: the kind's waiting jobs reach its backlog cap (or, for bot matches, the
    running ones reach the site's cap)."""
