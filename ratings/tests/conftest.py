"""Fixtures of the ratings tests (the root conftest.py has the cross-app ones)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Profile


@pytest.fixture
def make_bot(db: Any) -> Callable[[str], Any]:
    """make_bot("random-bot") → a built-in bot account, flagged as bots.services does."""

    def make(username: str) -> Any:
        user = get_user_model().objects.create_user(username)
        Profile.objects.filter(user=user).update(is_bot=True, bot_engine="random", bot_level=1)
        return user

    return make
