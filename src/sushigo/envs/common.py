"""What the Gymnasium and PettingZoo environments share: the settings' checks and the final rewards.

The games differ only in their :class:`~.adapters.GameAdapter` (how a state is dealt, encoded, what is
legal and how a code is played); the environments (:mod:`.gym_env`, :mod:`.pettingzoo_env`) are one
class each for every game.
"""

from __future__ import annotations

from typing import Any, Literal

from .adapters import GameAdapter

Reward = Literal["margin", "win"]


def final_reward(adapter: GameAdapter, state: Any, seat: int, reward: Reward) -> float:
    """Returns the end-of-game reward of ``seat`` ("margin" or "win")."""
    if reward == "margin":
        totals = adapter.totals(state)
        return float(totals[seat] - max(t for s, t in enumerate(totals) if s != seat))
    if reward == "win":
        winners = adapter.winners(state)
        if seat not in winners:
            return -1.0
        return 1.0 if len(winners) == 1 else 0.0
    raise ValueError(f"unknown reward {reward!r}; expected margin or win")


def check_settings(reward: str, illegal_action: str, *, players: int = 0, seat: int | None = None) -> None:
    """Refuses a bad seat (when given), reward or illegal-action rule, in that order, at construction
    rather than at the first ``reset``.

    :raises ValueError: naming the bad value and what is expected.
    """
    if seat is not None and not 0 <= seat < players:
        raise ValueError(f"there is no seat {seat} in a {players}-player game")
    if reward not in ("margin", "win"):
        raise ValueError(f"unknown reward {reward!r}; expected margin or win")
    if illegal_action not in ("terminate", "raise"):
        raise ValueError(f"unknown illegal_action {illegal_action!r}; expected terminate or raise")
