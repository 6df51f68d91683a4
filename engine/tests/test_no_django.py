"""The engine is pure Python: nothing under engine/ may import Django."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

ENGINE = pathlib.Path(__file__).resolve().parents[1]


def test_no_module_under_engine_imports_django() -> None:
    offenders = []
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n == "django" or n.startswith(("django.", "rest_framework")) for n in names):
                offenders.append(str(path.relative_to(ENGINE)))
    assert offenders == []


def test_importing_the_engine_does_not_load_django() -> None:
    code = (
        "import sys, pkgutil, importlib, engine\n"
        'for m in pkgutil.walk_packages(engine.__path__, "engine."):\n'
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        'print("django" in sys.modules)'
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ENGINE.parent, check=True
    )
    assert out.stdout.strip() == "False"
