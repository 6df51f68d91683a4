"""A beat scheduler for the tests: beat as if it last ran a week ago.

``celery -A config beat -S config.tests.due_scheduler:EveryEntryDueScheduler`` reads the
real schedule (CELERY_BEAT_SCHEDULE) and sends it the real way, but every entry's last
run is a week back, so each one, an interval or a crontab, is due at the first tick
instead of after its period.  Kept in memory: no schedule file to share or clean up.
"""

from __future__ import annotations

import datetime

from celery.beat import Scheduler

LAST_RUN_AGO = datetime.timedelta(days=7)


class EveryEntryDueScheduler(Scheduler):
    def setup_schedule(self) -> None:
        super().setup_schedule()
        long_ago = self.app.now() - LAST_RUN_AGO
        for entry in self.schedule.values():
            entry.last_run_at = long_ago
