"""Fixtures shared by the environment tests (importlib mode: tests share through fixtures)."""

from __future__ import annotations

from collections.abc import Callable
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
