"""Runs the examples in the core's docstrings, so the documentation cannot drift from the code."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "sushigo.chance",
    "sushigo.scoring",
    "sushigo.sushi_go.cards",
    "sushigo.sushi_go.actions",
    "sushigo.sushi_go.score",
    "sushigo.sushi_go.rules",
    "sushigo.tournament.stats",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
