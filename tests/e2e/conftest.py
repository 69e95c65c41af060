"""Every browser test is slow; the ``browser`` fixture (Debian's Chromium under Playwright, one per
module) is in tests/conftest.py, shared with the cluster's browser test."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every browser test is slow: out of the fast loop (`pytest -m "not slow"`), in CI's full run."""
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(here + os.sep):
            item.add_marker(pytest.mark.slow)
