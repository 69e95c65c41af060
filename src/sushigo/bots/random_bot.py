"""The ``random`` bot: a uniformly random legal action, the baseline every other bot must beat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import GAME_NAMES
from .base import BaseBot
from .registry import register


class RandomBot(BaseBot):
    """Picks uniformly among the legal actions with its own seeded RNG."""

    name = "random"
    #: it never reads its observation, so the runner builds none and hands it ``None``
    reads_observation = False

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns a random legal action, without reading the observation (the runner hands it ``None``).

        The draw is ``random.Random.choice``'s own (rejection sampling on ``getrandbits``), written out
        to save two Python calls per move, so a seeded game plays the same picks as ``rng.choice`` and
        as the earlier ``legal[rng.randrange(len(legal))]`` (a test checks it).
        """
        n = len(legal)
        if n == 0:
            raise IndexError("no legal action to choose from")
        bits = n.bit_length()
        draw = self.rng.getrandbits
        r = draw(bits)
        while r >= n:
            r = draw(bits)
        return legal[r]


for _game in GAME_NAMES:
    register("random", _game, RandomBot)
