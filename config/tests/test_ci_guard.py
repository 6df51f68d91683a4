"""CI_REQUIRE_SERVICES=1 makes the suite fail when it runs on the embedded fallbacks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def test_suite_fails_on_sqlite_when_ci_requires_real_services() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["CI_REQUIRE_SERVICES"] = "1"
    done = subprocess.run(
        [
            sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
            "config/tests/test_platform_module.py::test_platform_folder_is_not_a_package",
        ],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode != 0, done.stdout
    assert "database is sqlite, not postgresql" in done.stdout
