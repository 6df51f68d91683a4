"""``unread_notifications`` in every template (for a "Notifications (3)" link in base.html).

Add ``"notifications.context_processors.unread"`` to TEMPLATES' context_processors.
One COUNT query per page for a logged-in user, none for visitors.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from notifications.services import unread_count


def unread(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": unread_count(user)}
