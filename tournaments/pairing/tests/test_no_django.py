"""tournaments.pairing must stay free of Django (it runs in workers and tools)."""

import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]


def test_importing_the_package_does_not_import_django() -> None:
    code = (
        "import sys, tournaments.pairing, tournaments.pairing.__main__, "
        "tournaments.pairing.simulate; "
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=PACKAGE.parents[1],
        check=True,
    )
    assert result.stdout.strip() == "[]"


def test_no_source_file_mentions_django_imports() -> None:
    for path in PACKAGE.rglob("*.py"):
        if path.name == Path(__file__).name:
            continue
        text = path.read_text()
        assert "import django" not in text and "from django" not in text, path
