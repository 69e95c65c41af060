"""Training runs PyTorch: every test here is slow, out of the fast loop (`pytest -m "not slow"`; CI runs
them all). Even the shortest `sushigo train` run costs seconds of PyTorch start-up."""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.slow)
