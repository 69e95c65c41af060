"""The ``greedy`` bot: the pick with the best immediate value, counting what sets a card completes.

For Sushi Go! a pick scores its immediate points (the set a tempura or sashimi completes, the step a
dumpling adds, a nigiri times the wasabi factor on a free wasabi: the card types' numbers, read by
:mod:`.sg_tools`), the change in the seat's maki standing
on the current tableaux, and a fixed credit for progress that scores later (a first tempura, a
wasabi, a pudding). Ties go to the seeded RNG. When it controls the dummy it gives the dummy the card
its opponent would value most. For Sushi Roll it defers to :class:`~.roll_bots.RollGreedyBot`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..sushi_go.actions import Pick
from ..sushi_go.observation import Observation
from .base import BaseBot
from .registry import register
from .sg_tools import ICONS, counts_of, free_wasabi, greedy_value, maki_points


def maki_gain(obs: Observation, seat: int, cards: Sequence[int]) -> float:
    """Change in ``seat``'s maki points on the current tableaux if it adds ``cards``."""
    add = sum(ICONS[c] for c in cards)
    if not add:
        return 0.0
    icons = [sum(ICONS[c] for c in t) for t in obs.tableaux]
    before = maki_points(icons)[seat]
    icons[seat] += add
    return float(maki_points(icons)[seat] - before)


class GreedyBot(BaseBot):
    """Sushi Go! greedy player (see the module docstring)."""

    name = "greedy"

    def value(self, obs: Observation, seat: int, cards: Sequence[int]) -> float:
        """Greedy value of ``seat`` taking ``cards``."""
        t = obs.tableaux[seat]
        return greedy_value(
            cards, counts_of(t), free_wasabi(t, obs.on_wasabi[seat]), maki_gain(obs, seat, cards)
        )

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns the legal pick with the highest greedy value."""
        obs: Observation = observation
        seat = obs.seat if obs.seat is not None else self.seat
        best: list[Pick] = []
        best_v = float("-inf")
        own_cache: dict[tuple[int, ...], float] = {}
        opp = 1 - seat if obs.config.dummy else None
        for pick in legal:
            key = tuple(int(c) for c in pick.cards)
            v = own_cache.get(key)
            if v is None:
                v = own_cache[key] = self.value(obs, seat, key)
            if pick.dummy is not None and opp is not None:
                v += 0.5 * self.value(obs, opp, (int(pick.dummy),))
            if v > best_v + 1e-9:
                best, best_v = [pick], v
            elif abs(v - best_v) <= 1e-9:
                best.append(pick)
        return best[self.rng.randrange(len(best))]


register("greedy", "sushi-go", GreedyBot)
