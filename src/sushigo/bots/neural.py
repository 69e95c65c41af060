"""The ``neural`` bot: the trained policy network alone, one forward pass per move.

It encodes its seat's observation (:mod:`.features`: nothing but the observation, which includes what
the seat remembers of the game), runs the network on NumPy (:mod:`.nn`) and plays the legal pick with the
highest logit, or samples with ``temperature`` > 0 (seeded, so a seeded bot is reproducible). A move
costs well under a millisecond on one core, so the bot suits the web app's quick seats and batches of
opponents: :meth:`NeuralBot.act_batch` answers many observations with one forward pass.

Options: ``weights`` (an ``.npz`` written by ``sushigo train``; default: the networks shipped with the
package, one for two players and one for three to five, see :func:`.nn.shipped_for`) and ``temperature`` (default 0: always the best pick).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..sushi_go.actions import Pick
from .base import BaseBot
from .features import check_observation, choices, encode
from .nn import Network, TableNetworks
from .options import number
from .registry import register


class NeuralBot(BaseBot):
    """Sushi Go! player that follows the policy network (see the module docstring)."""

    name = "neural"

    def __init__(self, seed: int | None = None, weights: str | None = None, temperature: float = 0.0) -> None:
        super().__init__(seed)
        self.temperature = number(temperature, "temperature")
        self.nets = TableNetworks(weights)
        self.net: Network = self.nets(2)
        self.last_value: float | None = None

    def _choose(self, logits_row: Any, legal: Sequence[Pick]) -> Pick:
        options = choices(legal)
        if len(options) == 1:
            return options[0]
        scores = [float(v) for v in self.net.pick_logits(logits_row, options)]
        if self.temperature <= 0:
            best = max(range(len(options)), key=lambda k: (scores[k], -k))
            return options[best]
        top = max(scores)
        weights = [math.exp((s - top) / self.temperature) for s in scores]
        r = self.rng.random() * sum(weights)
        for pick, w in zip(options, weights):
            r -= w
            if r <= 0:
                return pick
        return options[-1]

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns the network's pick for this observation."""
        obs = check_observation(observation)
        legal = list(legal)
        if len(legal) == 1:
            return legal[0]
        self.net = self.nets(obs.players)
        logits, values = self.net.forward([encode(obs)])
        self.last_value = float(values[0])
        return self._choose(logits[0], legal)

    def act_batch(self, observations: Sequence[Any], legal: Sequence[Sequence[Any]]) -> list[Any]:
        """Returns one pick per observation (each with its own legal picks), from one forward pass.

        The observations may belong to different seats and games of any setting; the bot keeps no
        memory between moves, so the order of calls does not matter.
        """
        if len(observations) != len(legal):
            raise ValueError(f"{len(observations)} observations need as many legal lists, not {len(legal)}")
        if not observations:
            return []
        checked = [check_observation(o) for o in observations]
        out: list[Any] = [None] * len(checked)
        # one forward pass per network: the table sizes in the batch may use different ones
        by_net: dict[int, list[int]] = {}
        for k, obs in enumerate(checked):
            by_net.setdefault(id(self.nets(obs.players)), []).append(k)
        for rows in by_net.values():
            self.net = self.nets(checked[rows[0]].players)
            logits, _ = self.net.forward([encode(checked[k]) for k in rows])
            for j, k in enumerate(rows):
                out[k] = self._choose(logits[j], list(legal[k]))
        return out


register("neural", "sushi-go", NeuralBot)
