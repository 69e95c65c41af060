"""The ``alpha`` variants of the root-prior study (docs/strength.md, "The root's prior"); not shipped.

The files under ``strength_results/root_prior_dev/`` were played with these classes, entered as
``module:Class`` bots with this folder on the path::

    PYTHONPATH=benchmarks sushigo tournament --players 5 --games 200 --seed 9400 -j 1 \\
        --bots alphaexp:AlphaExp,mcts,neural,heuristic,greedy --bot-option mcts.iterations=200 \\
        --bot-option alphaexp:AlphaExp.iterations=200 --bot-option alphaexp:AlphaExp.root_temp=1e9 \\
        --results benchmarks/strength_results/root_prior_dev/r5_rootuni_s9400.jsonl

``AlphaExp`` divides the network's logits by ``temp`` before the softmax of the prior (``root_temp`` at
the root; 1e9 or more: an even prior). It reproduced, move for move, what ``alpha`` now does by
default at five players (``root_temp=1e9``, checked on that file's first games) and what it did before
(the defaults). ``PartyAlphaExp`` gives the Party ``alpha`` an even root prior (``root_uniform``).
"""

from __future__ import annotations

import math
from typing import Any

from sushigo.bots.alpha import AlphaBot
from sushigo.bots.party.alpha import PartyAlphaBot
from sushigo.bots.search import softmax


class AlphaExp(AlphaBot):
    """Sushi Go! ``alpha`` with a prior temperature, at the root and below (the root prior forced on,
    as it was before the study, so that ``root_temp`` alone decides the root)."""

    def __init__(self, temp: float = 1.0, root_temp: float | None = None, **kw: Any) -> None:
        super().__init__(root_prior=True, **kw)
        self.temp = float(temp)
        self.root_temp = self.temp if root_temp is None else float(root_temp)
        self._first = False

    def act(self, observation: Any, legal: Any) -> Any:
        self._first = True  # the root's priors are the first a move computes
        return super().act(observation, legal)

    def _priors(self, node: Any, options: list[Any]) -> list[float]:
        t = self.root_temp if self._first else self.temp
        self._first = False
        if math.isinf(t) or t >= 1e6:
            return [1.0 / len(options)] * len(options)
        return softmax([float(v) / t for v in self.net.pick_logits(node.logits, options)])


class PartyAlphaExp(PartyAlphaBot):
    """Party ``alpha`` with an even prior at the root when ``root_uniform`` (the tree below keeps the
    network's)."""

    def __init__(self, root_uniform: bool = True, **kw: Any) -> None:
        super().__init__(**kw)
        self.root_uniform = bool(root_uniform)

    def _node_priors(
        self, node: Any, names: list[str], options: list[Any], st: Any, seat: int, obs: Any
    ) -> list[float]:
        if self.root_uniform and not node.avail:
            return [1.0 / len(names)] * len(names)
        return super()._node_priors(node, names, options, st, seat, obs)
