"""``manage.py export_archive FILE``: every game, player, turn, result (and tournament) to FILE.

``-`` writes to standard output.  See games/archive_file.py for the format.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from archive.archive_file import export_archive


class Command(BaseCommand):
    help = "Export the whole database's games (and tournaments) to a JSON Lines archive."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="Archive file to write ('-' for standard output).")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        if file == "-":
            count = export_archive(sys.stdout)
        else:
            with open(file, "w", encoding="utf-8", newline="\n") as handle:
                count = export_archive(handle)
        self.stderr.write(f"{count} records exported")
