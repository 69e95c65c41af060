"""The ``random`` bot: a uniformly random legal action, the baseline every other bot must beat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import BaseBot


class RandomBot(BaseBot):
    """Picks uniformly among the legal actions with its own seeded RNG."""

    name = "random"

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns a random legal action, without reading the observation (so the runner never builds it).

        ``choice`` draws exactly as ``legal[rng.randrange(len(legal))]`` did, with less overhead, so a
        seeded game plays the same picks as before.
        """
        return self.rng.choice(legal)
