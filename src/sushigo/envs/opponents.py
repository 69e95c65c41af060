"""Bot opponents for the single-agent environments, chosen by name through :func:`sushigo.bots.make_bot`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..game import GameState


def opponent_names(opponents: str | Sequence[str], count: int) -> list[str]:
    """Returns one bot name per opponent seat (one name is used for every seat).

    :raises ValueError: when a sequence has the wrong length.
    """
    if isinstance(opponents, str):
        return [opponents] * count
    names = list(opponents)
    if len(names) != count:
        raise ValueError(f"{count} opponent seats need {count} bot names, not {len(names)}")
    return names


def make_opponents(
    names: Sequence[str], seats: Sequence[int], game: str, players: int, rng: np.random.Generator
) -> dict[int, Any]:
    """Creates and resets one seeded bot per seat."""
    from ..bots import make_bot

    bots = {}
    for seat, name in zip(seats, names):
        bot = make_bot(name, seed=int(rng.integers(1 << 31)), game=game)
        bot.reset(seat, game, players)
        bots[seat] = bot
    return bots


def bot_actions(state: GameState, bots: dict[int, Any], seats: Sequence[int]) -> list[tuple[int, Any]]:
    """Asks each bot of ``seats`` for its action from its observation alone (all before any is submitted)."""
    return [(s, bots[s].act(state.observe(s), state.legal_actions(s))) for s in seats]
