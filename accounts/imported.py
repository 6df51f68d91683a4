"""Players named in imported records (archive .agn files, tournament TRF files).

Imported records never count for a real account: each name stands for an inactive
account whose username has the ``@imported`` suffix (accounts.usernames), the name
itself kept as the display name.  The one home of that rule for every importer.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from accounts.models import Profile
from accounts.usernames import IMPORTED_SUFFIX
from core.text import strip_hidden


def imported_display_name(name: str | None) -> str:
    """The name shown for a player named in a file: invisible and direction-changing
    characters stripped (core.text; a page showing the name must not hold them), spaces
    collapsed, at most 64 characters."""
    return " ".join(strip_hidden(name or "?").split())[:64] or "?"


def imported_username(display_name: str) -> str:
    """The inactive account's username for a display name, in the ``@imported`` namespace
    (accounts.usernames keeps ``@`` out of registered names).  Only the characters a
    username may hold: a "/" would break every URL to the player's page."""
    return re.sub(r"[^\w.@+-]", "_", display_name[:120]) + IMPORTED_SUFFIX


def imported_player(name: str) -> Any:
    """The inactive account that stands for ``name`` (created the first time).

    Two imports may create the same name at once: usernames are unique whatever the
    case (accounts migration 0002), so the loser of that race takes the winner's account.
    """
    User = get_user_model()
    name = imported_display_name(name)
    username = imported_username(name)
    user = User.objects.filter(username__iexact=username).first()
    if user is not None:
        return user
    try:
        with transaction.atomic():
            user = User(username=username, is_active=False)
            user.set_unusable_password()
            user.save()
            Profile.objects.update_or_create(user=user, defaults={"display_name": name})
            return user
    except IntegrityError:
        return User.objects.get(username__iexact=username)
