"""Shared fixtures: the Swiss examples shipped with the tournaments reference."""

import json
from pathlib import Path

import pytest

Expected = dict[str, dict[str, list[list[int]]]]
_ROOT = Path(__file__).resolve().parents[3]
# shared/ sits beside the clone (CI: ../shared); on the development machine it
# is /work/shared, beside the main checkout.
_CANDIDATES = [
    _ROOT.parent / "shared" / "tournaments" / "swiss-examples",
    Path("/work/shared/tournaments/swiss-examples"),
]
EXAMPLES = next((p for p in _CANDIDATES if (p / "expected.json").exists()), _CANDIDATES[0])


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
