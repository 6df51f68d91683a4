"""Run every ``>>>`` example in the engine's docstrings."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engine

MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(engine.__path__, "engine.")
    if ".tests" not in name and not name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    failures, _tests = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
