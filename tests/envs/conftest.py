"""Fixtures shared by the environment tests (importlib mode: tests share through fixtures)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def _bot_vs_random(game: Any, bot: Any, rs: Any) -> tuple[Any, int]:
    """Plays one OpenSpiel game: ``bot`` at seat 0, uniform random moves elsewhere, chance by its
    probabilities. Returns the terminal state and how many moves the bot made."""
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            moves += 1
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    return state, moves


@pytest.fixture
def bot_vs_random() -> Callable[[Any, Any, Any], tuple[Any, int]]:
    return _bot_vs_random


# ------------------------------------------------------------------------------------- the fast loop
#: Out of the fast loop (`pytest -m "not slow"`; CI runs them all): OpenSpiel's random simulations
#: (whole games through every API check, 10 s each for Sushi Roll) and the MaskablePPO example (a
#: training run of minutes). Matched on the test function's name or module.
SLOW_NAMES = ("random_sim", "seeded_deals_remain_available")
SLOW_MODULES = {"test_maskable_ppo.py"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if not item.path.is_relative_to(here):
            continue
        name = getattr(item, "originalname", item.name)
        if item.path.name in SLOW_MODULES or any(s in name for s in SLOW_NAMES):
            item.add_marker(pytest.mark.slow)
