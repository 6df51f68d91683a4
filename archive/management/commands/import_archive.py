"""``manage.py import_archive FILE``: load an export_archive file into a database with no games.

All or nothing: a malformed record, or a game whose turns do not replay through
the engine, stops the import and nothing is stored.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from archive.archive_file import ArchiveError, import_archive


class Command(BaseCommand):
    help = "Import a JSON Lines archive written by export_archive (into a database with no games)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="Archive file to read.")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        try:
            with open(file, encoding="utf-8") as handle:
                counts = import_archive(handle)
        except (OSError, UnicodeDecodeError, ArchiveError) as exc:
            raise CommandError(f"{file}: {exc}") from None
        summary = ", ".join(f"{count} {label}" for label, count in counts.items())
        self.stdout.write(f"imported {summary or 'nothing'}")
