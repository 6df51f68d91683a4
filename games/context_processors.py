"""``awaiting_games``: how many games wait for the logged-in user (see games.awaiting).

Every page's ``<title>`` starts with "(N) " when N ≥ 1 and the header links the count
to the list of those games.  One query per page for a logged-in user, none for visitors.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games.awaiting import awaiting_count


def awaiting(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"awaiting_games": awaiting_count(user)}
