"""A fresh database can be migrated: loading the URLs must not query any table.

(Found by the schema fuzzing: the archive API built a form at import time, whose
``__init__`` read the tournaments table, so ``manage.py migrate`` on an empty
database crashed with "no such table".)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def test_migrate_then_check_on_an_empty_database(tmp_path: Path) -> None:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}",
    }
    for command in (["migrate", "--noinput"], ["check"]):
        done = subprocess.run(
            [sys.executable, "manage.py", *command],
            check=False,
            cwd=BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert done.returncode == 0, done.stdout + done.stderr
