"""Create or update one bot account per engine player (idempotent).

Run by ``load_demo`` (and so by ``python3 dev.py start``); run it again after
the engine gains a player.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from bots.services import ensure_builtin_bots


class Command(BaseCommand):
    help = "Create or update the built-in bot accounts (one per engine player). Idempotent."

    def handle(self, *args: Any, **options: Any) -> None:
        users = ensure_builtin_bots()
        names = ", ".join(f"{user.username} (level {user.profile.bot_level})" for user in users)
        self.stdout.write(f"Built-in bots: {names}")
