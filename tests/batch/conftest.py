"""The batch engine's slow tests, out of the fast loop (`pytest -m "not slow"`; CI runs them all): the
Numba path (its first call compiles for over a minute on a loaded machine) and most of the many-game
replays through the core. One setting of each replay test stays in the fast loop."""

from __future__ import annotations

from pathlib import Path

import pytest

#: the replay tests, each with the settings kept in the fast loop
REPLAYS = {
    "test_random_games_replay_exactly_through_the_core": {"4p-base-numpy", "2p-dummy+dummy_outside_majorities-numpy"},
    "test_policy_driven_games_replay_exactly_through_the_core": {"4p-base", "3p-pass_both_ways"},
}


def _slow(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    ident = callspec.id if callspec is not None else ""
    if "numba" in ident.split("-"):
        return True
    keep = REPLAYS.get(getattr(item, "originalname", item.name))
    return keep is not None and ident not in keep


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here) and _slow(item):
            item.add_marker(pytest.mark.slow)
