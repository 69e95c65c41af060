"""The Party ``alpha`` bot: the Party ``mcts`` search guided by the Party policy network (AlphaGo-style).

It is :class:`~.mcts.PartyMCTSBot` — its determinisation from the public unseen pool, its rollouts,
reward, budgets and mid-turn searches, inherited through two hooks rather than copied — with the
``neural`` bot's network (:mod:`.neural`) in two places:

* **prior** — at the searching seat's nodes (its picks and the mid-turn steps that branch in the tree)
  the child is chosen by PUCT, ``Q + c_puct · P · sqrt(A) / (1 + n)``: ``P`` is the softmax of the
  network's scores over the actions offered there, mixed with a uniform share ``prior_mix`` so that a
  network that misjudges a menu cannot starve an action, ``A`` how often the action was offered (the
  information-set analogue of the parent's visits) and ``n`` its visits; an unvisited action's ``Q``
  is the node's mean so far. UCB1 tries every action and shares the rest by results alone; with
  50–100 iterations and ten or more actions below the root it rarely gets past trying, and the prior
  spends that budget on the actions worth a look instead. At the root ``P`` comes from the real observation; below
  it, from the seat's observation of the sampled state at the first visit of that node and kind of
  decision (its logits are kept, its softmax taken over whatever the sample offers), with the real
  game's running scores and earlier rounds put back, since the sampled state only holds this round.
* **every root action once** — with ``visit_all`` (the default) the root first gives each candidate
  one rollout, the network's favourite first, and only then lets PUCT share out the rest of the
  budget: a network that misjudges a menu (on ``points_platter`` it plays at ``greedy``'s level or
  below) cannot keep the search from ever seeing an action's result, and an action the rollouts
  clearly prefer soon out-visits the prior's favourite. Without it, on ``points_platter`` the search
  played at the network's level; with it, better, but still behind ``mcts`` there, and only with
  ``prior_mix`` ahead of it (docs/party_alpha.md).
* **candidates** — a mid-turn decision with more than six legal actions (a spoon's request, a
  takeout box's flips) is searched among the heuristic's best six *and* the network's best
  ``net_candidates`` (the union), so a choice the heuristic misjudges can still be found.

Root ties in visits go to the higher prior. No value head: leaves are scored by ``mcts``'s rollout.

Hidden information: the network only ever sees observations — the real one, or a sampled state's
observation built from cards drawn from the seat's public unseen pool — so the true hidden cards
cannot reach it (``tests/bots/test_party_alpha.py`` swaps them and checks the pick is unchanged).

Options: those of ``mcts`` but ``c`` (``iterations`` — default 100 when no time is given —,
``time_ms``, ``epsilon``, ``search_choices``; UCB1's ``c`` has no part in a PUCT search, so it is
refused rather than ignored), ``c_puct`` (default :data:`C_PUCT`), ``prior_mix`` (default
:data:`PRIOR_MIX`), ``visit_all`` (default on),
``net_candidates`` (default :data:`NET_CANDIDATES`) and ``weights`` (an ``.npz`` of :mod:`.neural`; default: the shipped network).
With an iteration budget the bot is deterministic for a given seed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..options import flag, number
from ..registry import register
from ..search import Node, puct, softmax
from .mcts import PartyMCTSBot
from .neural import PartyNetwork, features, legal_indices, load

#: the PUCT constant (tuned on master_menu at four players, 50 iterations: docs/party_alpha.md)
C_PUCT = 0.4
#: the uniform share mixed into every prior: a network that misjudges a menu still leaves each action
#: a floor of ``prior_mix / len(actions)`` of the exploration bonus (chosen on five random training
#: menus at four players, 50 iterations: docs/party_alpha.md)
PRIOR_MIX = 0.5
#: the network's best this many join the heuristic's best six at a wide mid-turn decision
NET_CANDIDATES = 3


class PartyAlphaBot(PartyMCTSBot):
    """Party IS-MCTS with the policy network as PUCT prior and candidate filter (module docstring)."""

    name = "alpha"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        time_ms: float | None = None,
        epsilon: float = 0.1,
        search_choices: bool = True,
        c_puct: float = C_PUCT,
        net_candidates: int = NET_CANDIDATES,
        weights: str | None = None,
        visit_all: bool = True,
        prior_mix: float = PRIOR_MIX,
    ) -> None:
        super().__init__(seed, iterations, time_ms, epsilon=epsilon, search_choices=search_choices)
        self.c_puct = number(c_puct, "c_puct", float, 0.0, above=True)
        self.net_candidates = number(net_candidates, "net_candidates", int, 0)
        self.visit_all = flag(visit_all, "visit_all")
        self.prior_mix = number(prior_mix, "prior_mix", float, 0.0, 1.0)
        self.net: PartyNetwork = load(weights)
        # per decision: the network's score of every real legal action (by text), and per tree node and
        # kind of decision its logits (nodes live as long as the decision's tree, so ids are stable)
        self._root_scores: dict[str, float] = {}
        self._logits: dict[tuple[int, str], Any] = {}
        self._priors: dict[tuple[int, str, tuple[str, ...]], list[float]] = {}

    def scores(self, obs: Any, legal: Sequence[Any]) -> list[float]:
        """The network's score of each of ``legal`` at the observation ``obs`` (as ``neural`` scores)."""
        return self._scores_from(self._forward(obs), obs, legal)

    def _forward(self, obs: Any) -> Any:
        return self.net.forward(features(obs)[None, :])[0]

    @staticmethod
    def _scores_from(logits: Any, obs: Any, legal: Sequence[Any]) -> list[float]:
        return [float(sum(logits[j] for j in idx)) for idx in legal_indices(obs, legal)]

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """The most visited root action after the budget, the search guided by the network."""
        legal = list(legal)
        self._logits.clear()
        self._priors.clear()
        self._root_scores = {}
        if len(legal) > 1 and not (observation.phase != "choose" and not self.search_choices):
            scores = self.scores(observation, legal)
            self._root_scores = {a.to_text(): s for a, s in zip(legal, scores)}
        try:
            choice = super().act(observation, legal)
        finally:
            self._logits.clear()
            self._priors.clear()
        if self.last_info.get("mode") == "mcts":
            self.last_info["mode"] = "alpha"
        return choice

    def candidates(self, obs: Any, legal: list[Any]) -> list[Any]:
        """The heuristic's best six (``mcts``'s candidates, its order) and then those of the network's
        best ``net_candidates`` that are not among them."""
        chosen = super().candidates(obs, legal)
        if self.net_candidates == 0 or not self._root_scores:
            return chosen
        have = {a.to_text() for a in chosen}
        ranked = sorted(range(len(legal)), key=lambda i: (-self._root_scores[legal[i].to_text()], i))
        extra = [legal[i] for i in ranked[: self.net_candidates] if legal[i].to_text() not in have]
        return chosen + extra

    def select(
        self, node: Node, names: list[str], options: list[Any], st: Any, seat: int, obs: Any
    ) -> tuple[int, bool]:
        """PUCT among ``names`` with the network's prior (module docstring); ``new`` when the chosen
        action had no visit yet (the rollout takes over from there, as in ``mcts``)."""
        priors = self._node_priors(node, names, options, st, seat, obs)
        children = node.children
        parent_q = node.wins / node.visits if node.visits else 0.5
        first = self.visit_all and not node.avail  # the root, while a candidate has no visit
        # untried first, the highest prior first among them
        best_i = puct(children, names, priors, self.c_puct, parent_q, untried_first=first)
        return best_i, children[names[best_i]].visits == 0

    def _node_priors(
        self, node: Node, names: list[str], options: list[Any], st: Any, seat: int, obs: Any
    ) -> list[float]:
        if st.phase == "choose" or st.current is None:
            kind = "choose"
        else:
            kind = f"{st.current.kind.name}/{st.current.step}"
        sig = (id(node), kind, tuple(names))
        priors = self._priors.get(sig)
        if priors is not None:
            return priors
        if not node.avail:
            # the root (every other node was offered at least once when it was made): the real
            # observation's scores, by the real actions' texts
            scores = [self._root_scores[k] for k in names]
        else:
            leaf = replace(st.observe(seat), scores=obs.scores, earlier_tableaux=obs.earlier_tableaux)
            logits = self._logits.get(sig[:2])
            if logits is None:
                logits = self._logits[sig[:2]] = self._forward(leaf)
            scores = self._scores_from(logits, leaf, options)
        priors = softmax(scores)
        if self.prior_mix:
            even = self.prior_mix / len(priors)
            priors = [(1.0 - self.prior_mix) * p + even for p in priors]
        self._priors[sig] = priors
        return priors

    def tie_order(self, keys: list[str], midturn: bool) -> list[str]:
        """The root actions by the network's score, best first (the first on equal scores)."""
        if not self._root_scores:
            return super().tie_order(keys, midturn)
        return sorted(keys, key=lambda k: -self._root_scores.get(k, -math.inf))


register("alpha", "sushi-go-party", PartyAlphaBot)
