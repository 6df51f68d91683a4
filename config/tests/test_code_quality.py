"""The linters CI relies on, run as tests so that the README's one test command runs them:
ruff (check and format), mypy on every app (the pure packages and core strictly), and
the import-linter contracts of the layers (pyproject.toml)."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def run(*command: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(part) for part in command],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_ruff_finds_nothing() -> None:
    done = run(sys.executable, "-m", "ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_leaves_every_file_as_it_is() -> None:
    done = run(sys.executable, "-m", "ruff", "format", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_mypy_passes_on_every_app() -> None:
    # Files, strictness and the Django and DRF plugins: [tool.mypy] in pyproject.toml
    # (the plugin imports config.settings, read from this process's environment).
    done = run(sys.executable, "-m", "mypy", "--no-incremental")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout


def test_the_layers_of_the_apps_hold() -> None:
    # Contracts: [tool.importlinter] in pyproject.toml (engine ← core ← accounts ← … ← web).
    done = run(BIN / "lint-imports", "--no-cache")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: " in done.stdout and " broken" in done.stdout


def test_apps_on_one_layer_may_not_import_each_other() -> None:
    # "a | b": independent siblings; "a : b" would let them import each other unseen.
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    layers = pyproject["tool"]["importlinter"]["contracts"][0]["layers"]
    assert [layer for layer in layers if ":" in layer] == []


def test_no_model_is_looked_up_by_name_outside_migrations() -> None:
    # A lookup by name (django.apps.apps.get_model) hides a dependency from the contract
    # above: import the model along the layers, or call the owning app's function.
    # Migrations must look models up by name (their historical models).
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    lookup = re.compile(r"\bget_model\(")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for package in pyproject["tool"]["importlinter"]["root_packages"]
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts and path != Path(__file__)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if lookup.search(line)
    ]
    assert found == [], "models looked up by name: " + ", ".join(found)


@pytest.mark.django_db
def test_every_model_change_has_its_migration() -> None:
    from django.core.management import call_command

    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, no_color=True)
    except SystemExit:  # --check exits with 1 when a migration is missing
        pytest.fail("a model changed without its migration:\n" + out.getvalue())
