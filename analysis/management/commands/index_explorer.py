"""Backfill the opening explorer: index every finished game it lacks, in batches.

New games are indexed as they finish (analysis.receivers) or are imported; this is for
the games finished before the explorer existed.  Then it counts by period the positions
that have analysis.explorer.DATED_FROM games of a kind but no periods yet (an index
built before migration analysis 0002; afterwards the indexing job does it as a position
gets there).  Safe to run again (or while games finish): a game is indexed once, a
position dated once.  ``--queue`` sends the games' part to a worker instead.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from analysis import explorer, tasks


class Command(BaseCommand):
    help = "Index the finished games the opening explorer lacks (once each)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--queue", action="store_true", help="as a Celery job")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["queue"]:
            tasks.index_unindexed_games.delay()
            self.stdout.write("queued analysis.tasks.index_unindexed_games")
            return
        total = explorer.index_unindexed(lambda done: self.stdout.write(f"{done} games indexed…"))
        self.stdout.write(self.style.SUCCESS(f"{total} games indexed"))
        dated = explorer.date_positions(
            lambda done: self.stdout.write(f"{done} positions counted by period…")
        )
        self.stdout.write(self.style.SUCCESS(f"{dated} positions counted by period"))
