"""`platform` must stay Python's standard-library module inside Django.

A top-level package called `platform` (our deployment folder, if it ever got an
__init__.py) would shadow it, and e.g. `import uuid` breaks in odd ways.
"""

import os
import platform
import subprocess
import sys
import sysconfig
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def _is_stdlib(path: str) -> bool:
    return Path(path).resolve().is_relative_to(Path(sysconfig.get_paths()["stdlib"]).resolve())


def test_platform_resolves_to_the_standard_library_inside_django() -> None:
    # Django is configured by pytest-django at this point.
    assert _is_stdlib(platform.__file__), platform.__file__
    assert platform.python_version().startswith(f"{sys.version_info.major}.")


def test_platform_folder_is_not_a_package() -> None:
    assert (BASE_DIR / "platform").is_dir()
    assert not (BASE_DIR / "platform" / "__init__.py").exists()


def test_platform_is_stdlib_in_a_fresh_django_process_started_from_the_project_root() -> None:
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        "django.setup(); import platform, uuid; print(platform.__file__); print(platform.system())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "ADAPTOID_TESTING": "1"},  # a dev key, whatever DATABASE_URL says
        check=False,
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    module_file, system = done.stdout.split()
    assert _is_stdlib(module_file), module_file
    assert system  # a real platform.system() answer, e.g. "Linux"
