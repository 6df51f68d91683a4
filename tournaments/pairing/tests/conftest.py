"""Shared fixtures: the Swiss examples shipped with the tournaments reference."""

import json
from pathlib import Path

import pytest

Expected = dict[str, dict[str, list[list[int]]]]
EXAMPLES = Path("/work/shared/tournaments/swiss-examples")


def example_names() -> list[str]:
    if not (EXAMPLES / "expected.json").exists():
        return []
    return sorted(json.loads((EXAMPLES / "expected.json").read_text()))


@pytest.fixture(scope="session")
def expected() -> Expected:
    if not (EXAMPLES / "expected.json").exists():
        pytest.skip("swiss-examples not available")
    loaded: Expected = json.loads((EXAMPLES / "expected.json").read_text())
    return loaded
