"""Players named in imported records (archive .agn files, tournament TRF files).

Imported records never count for a real account: each name stands for an inactive
account whose username has the ``@imported`` suffix (accounts.usernames), the name
itself kept as the display name.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import get_user_model

from accounts.models import Profile
from accounts.usernames import IMPORTED_SUFFIX
from core.text import strip_hidden


def imported_player(name: str) -> Any:
    """The inactive account that stands for ``name`` (created the first time)."""
    User = get_user_model()
    # Invisible and direction-changing characters are stripped (core.text): a file may
    # hold them, a page showing the name must not.
    name = " ".join(strip_hidden(name or "?").split())[:64] or "?"
    # Only the characters a username may hold: a "/" would break every URL to the
    # player's page (and so every page listing the game), "<" has no place in one.
    username = re.sub(r"[^\w.@+-]", "_", name[:120]) + IMPORTED_SUFFIX
    # Usernames are unique whatever the case: "Alice" and "alice" are one player.
    user = User.objects.filter(username__iexact=username).first()
    if user is None:
        user = User(username=username, is_active=False)
        user.set_unusable_password()
        user.save()
        Profile.objects.update_or_create(user=user, defaults={"display_name": name})
    return user
