"""The ``>>>`` examples in the package docs (the API walkthrough included) run."""

import doctest
import importlib

import pytest

MODULES = [
    "tournaments.pairing",
    "tournaments.pairing.berger",
    "tournaments.pairing.model",
    "tournaments.pairing.ranking",
    "tournaments.pairing.standings",
    "tournaments.pairing.swiss",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
