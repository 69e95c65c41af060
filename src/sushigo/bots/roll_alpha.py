"""The Sushi Roll ``alpha`` bot: the ``mcts`` search guided by the ``neural`` bot's scoring network.

It is :class:`~.roll_bots.RollMCTSBot` (open-loop search over the seat's own actions, chance and the
other seats sampled afresh in every iteration from the public table, rollouts to the end of the round)
with the network of :mod:`.roll_neural` in two places, through the two hooks that search exposes:

* **which root actions** — ``mcts`` prunes the root to every take, a few re-roll subsets and the most
  promising swaps, because there can be 255 re-roll subsets and dozens of swaps. ``alpha`` scores every
  legal action with the network and searches ``mcts``'s candidates plus the network's ``widen`` best
  others, so a re-roll or swap the pruning rule never proposes can still be found;
* **prior** — the seat's actions are selected by PUCT, ``Q + c_puct · P · sqrt(N) / (1 + n)``, where
  ``P`` is the softmax of the network's scores over the actions searched at that node, ``N`` the node's
  visits and ``n`` the action's (an unvisited action's ``Q`` is its parent's mean). Below the root the
  search is open-loop, so one node stands for different sampled belts: its prior is computed from the
  sample at hand, from a copy of the root observation with the sampled belts, trays and tokens put in
  (the search never leaves the round, so the scores and the round stay the root's). With
  ``tree_prior`` off, the nodes below the root keep ``mcts``'s UCB1 and only the root uses the prior.

Why PUCT matters more than it looks: with 200 iterations and twenty-odd root actions ``mcts`` gives each
about eight visits, and a child reached for the first time is left by a rollout whose own first move
is a random untried action; the prior spends the visits on the few actions the network (trained to
imitate ``mcts`` at 150 iterations) expects, and below the root it picks the seat's next move the way
the network would instead of at random.

Only the seat's observation is used: the network reads that observation (or its sampled continuation
inside the search, which :func:`~.roll_bots.build_roll_state` rolls from the bot's own RNG), never the
true game's future dice. With an ``iterations`` budget the bot is deterministic for a given seed.

Options: those of ``mcts`` (``iterations`` — default 200 when no ``time_ms`` is given —, ``time_ms``,
``c``, the UCB1 constant used below the root when ``tree_prior`` is off, ``epsilon``, ``max_swaps``),
``c_puct`` (default 1.5), ``widen`` (default 4: how many of the network's best legal actions join
``mcts``'s root candidates), ``tree_prior`` (default on) and ``weights`` (a Sushi Roll network
``.npz``; default: the shipped one).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..sushi_roll.actions import Reroll, Swap, Take
from ..sushi_roll.observation import Observation
from ..sushi_roll.rules import State
from .options import flag, number
from .registry import register
from .roll_bots import RollMCTSBot
from .roll_neural import RollNetwork, action_features, load, position_features
from .search import Node, puct, softmax

Action = Take | Reroll | Swap

#: defaults of the options that are alpha's own
C_PUCT = 1.5
WIDEN = 4


class RollAlphaBot(RollMCTSBot):
    """Sushi Roll ``mcts`` with the network's prior and root widening (see the module docstring)."""

    name = "alpha"
    default_iterations = 200

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        time_ms: float | None = None,
        c_puct: float = C_PUCT,
        widen: int = WIDEN,
        tree_prior: bool = True,
        weights: str | None = None,
        c: float = 0.7,
        epsilon: float = 0.1,
        max_swaps: int = 4,
        exact_nodes: int = 0,
    ) -> None:
        super().__init__(seed, iterations, time_ms, c, epsilon, max_swaps, exact_nodes)
        self.c_puct = number(c_puct, "c_puct")
        self.widen = number(widen, "widen", int, 0)
        self.tree_prior = flag(tree_prior, "tree_prior")
        self.net: RollNetwork = load(weights)
        self._root_priors: list[float] = []
        self._root: Node | None = None
        self._root_keys: Sequence[str] = ()

    # ------------------------------------------------------------------ the network

    def _scores(self, obs: Observation, actions: Sequence[Action]) -> list[float]:
        return [float(v) for v in self.net.scores(position_features(obs), action_features(obs, actions))]

    def _sample_view(self, obs: Observation, st: State, seat: int) -> Observation:
        """The seat's view of a search sample: the root observation with the sample's belts, this
        round's trays, tokens and supplies. The search stays inside the root's round, so the round and
        the scores are the root's; nothing here comes from the real game beyond ``obs``. Only the
        seat's own free wasabi is filled in: the features read no other seat's, and each costs a tray
        scan in every iteration."""
        wasabi = [0] * st.players
        wasabi[seat] = st.free_wasabi(seat)
        return replace(
            obs,
            cycle=st.cycle,
            belts=tuple(tuple(f for _, f in b) for b in st.belts),
            trays=tuple(tuple(f for _, f in t) for t in st.trays[-1]),
            free_wasabi=tuple(wasabi),
            menu=tuple(st.menu),
            chopsticks=tuple(st.chopsticks),
            pudding=tuple(st.pudding),
            supply_menu=st.supply["menu"],
            supply_chopsticks=st.supply["chopsticks"],
            supply_pudding=st.supply["pudding"],
            seat=seat,
        )

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """The ``mcts`` decision; ``last_info`` also gets each searched root action's prior and
        visits (``priors``, ``visits``, keyed by the action's text), which show what the prior did."""
        self._root, self._root_keys = None, ()
        choice = super().act(observation, legal)
        if self.last_info.get("mode") == "mcts":  # as the other games' alpha: a search of its own
            self.last_info["mode"] = "alpha"
        root = self._root
        if root is not None:
            keys = self._root_keys
            self.last_info["priors"] = dict(zip(keys, self._root_priors))
            self.last_info["visits"] = {
                k: (root.children[k].visits if k in root.children else 0) for k in keys
            }
        return choice

    # ------------------------------------------------------------------ the search's hooks

    def _root_options(self, obs: Observation, seat: int, legal: list[Action]) -> list[Action]:
        """``mcts``'s candidates, then the network's ``widen`` best other legal actions; their priors
        (the softmax of the scores over this set) are kept for the root's PUCT."""
        base = super()._root_options(obs, seat, legal)
        scores = self._scores(obs, legal) if len(legal) > 1 else [0.0] * len(legal)
        by_action = dict(zip(legal, scores))
        chosen = set(base)
        ranked = sorted((-s, i) for i, s in enumerate(scores) if legal[i] not in chosen)
        opts = base + [legal[i] for _, i in ranked[: self.widen]]
        self._root_priors = softmax([by_action.get(a, min(scores)) for a in opts])
        return opts

    def _select(
        self,
        node: Node,
        at_root: bool,
        obs: Observation,
        st: State,
        opts: Sequence[Action],
        keys: Sequence[str],
    ) -> tuple[int, bool]:
        """PUCT among ``opts`` with the network's prior; ``new`` when the chosen child had no visit
        yet (the iteration then leaves the tree and plays the sample out, as in ``mcts``)."""
        if at_root:
            priors = self._root_priors
            self._root, self._root_keys = node, keys
        elif self.tree_prior:
            seat = st.current_seat
            assert seat is not None
            priors = softmax(self._scores(self._sample_view(obs, st, seat), opts))
        else:
            return super()._select(node, at_root, obs, st, opts, keys)
        children = node.children
        parent_q = node.wins / node.visits if node.visits else 0.5
        best_i = puct(children, keys, priors, self.c_puct, parent_q, sqrt_n=math.sqrt(max(1, node.visits)))
        child = children.get(keys[best_i])
        if child is None:
            child = children[keys[best_i]] = Node()
        return best_i, child.visits == 0


register("alpha", "sushi-roll", RollAlphaBot)
