"""``manage.py verify_games [ID …]``: replay stored games through the engine, report mismatches.

Exit status 0 when every game replays to its cached position, 1 otherwise (one
line per problem on stderr), so cron or CI can act on it.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from archive.verification import verify_games


class Command(BaseCommand):
    help = "Replay every stored game (or the given ids) through the engine and report mismatches."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="Only these games.")

    def handle(self, *args: Any, game_ids: list[int], **options: Any) -> None:
        report = verify_games(game_ids or None)
        for mismatch in report.mismatches:
            self.stderr.write(str(mismatch))
        summary = f"{report.checked} games checked, {len(report.mismatches)} mismatches"
        if not report.ok:
            raise CommandError(summary, returncode=1)
        self.stdout.write(summary)
