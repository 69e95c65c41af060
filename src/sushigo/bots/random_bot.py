"""The ``random`` bot: a uniformly random legal action, the baseline every other bot must beat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import BaseBot


class RandomBot(BaseBot):
    """Picks uniformly among the legal actions with its own seeded RNG."""

    name = "random"

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns a random legal action."""
        return legal[self.rng.randrange(len(legal))]
