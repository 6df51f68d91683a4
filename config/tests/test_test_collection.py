"""The default pytest run (what CI runs) must collect every package's tests."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_tests_folder_is_under_a_collected_path() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    testpaths = config["tool"]["pytest"]["ini_options"]["testpaths"]
    ignored = {".venv", "var", "staticfiles", "node_modules", ".git"}
    folders = [
        path.relative_to(ROOT)
        for path in ROOT.rglob("tests")
        if path.is_dir() and not ignored.intersection(path.relative_to(ROOT).parts)
    ]
    assert folders, "no tests folder found at all"
    missed = [str(folder) for folder in folders if folder.parts[0] not in testpaths]
    assert not missed, f"tests folders that a plain `pytest` never runs: {missed}"
