"""Fixtures shared by the bots tests (the root conftest.py has the cross-app ones)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Profile
from bots import services as bots


@pytest.fixture
def random_bot() -> Any:
    """The built-in bot playing the engine's random player."""
    return bots.ensure_builtin_bots()[0]


@pytest.fixture
def second_bot(random_bot: Any) -> Any:
    """Another built-in bot account, playing the engine's random player too."""
    user = get_user_model().objects.create_user("random-bot-2")
    Profile.objects.filter(user=user).update(is_bot=True, bot_engine="random", bot_level=1)
    return user
