"""The ``alpha`` bot: IS-MCTS guided by the policy-and-value network (AlphaZero-style PUCT).

It is the ``mcts`` bot's search (:class:`~.mcts.MCTSBot`, whose determinisation, budget and exact
endgame it inherits rather than copies) with the network in two places:

* **prior** — the tree selects the searching seat's picks by PUCT,
  ``Q + c_puct · P · sqrt(A) / (1 + n)``, where ``P`` is the network's policy at that node (a node keeps
  its logits; the priors of the picks legal in the current determinisation are their softmax), ``A``
  the number of times the pick was available and ``n`` its visits. At five players the root is the
  exception: there every pick has the same prior (``root_prior`` off), so the move is chosen by the
  search's results, not by the network's first opinion. With the prior at the root the most visited
  pick was mostly the network's favourite, and at five players that made ``alpha`` (22% of the wins)
  lose to ``mcts`` (45%); without it ``alpha`` won 56% to ``mcts``'s 18% on the same deals. At three
  and four players the prior at the root did better (docs/strength.md, "The root's prior");
* **leaf value** — a new node is scored by ``value_weight`` × the network's value of the seat's
  position there plus the rest × the ``mcts`` rollout result (the round played out with the cheap
  rollout policy and scored by its margin); a node that ends a round is scored by the round result
  alone, which is exact for that sample.

The leaf position is a private determinised :class:`~sushigo.sushi_go.rules.State`; the network sees
the seat's observation of it with the real game's earlier rounds and scores put back (the search state
only knows the rounds it played itself), so the input is built exactly as in play, from an observation.
The other seats' picks in the tree come from the same stochastic greedy policy as in ``mcts``.

Two players without the dummy are played differently by default: no exact endgame (``exact_nodes``
0) and a stronger prior (``c_puct`` 4.0). The exact endgame is exact only against its model of the
other seat, the cheap greedy policy; at two players it takes over from the sixth card of a round, and
the network alone beats ``mcts`` — whose endgame that is — in 64% of two-player games, so there the
search keeps the network's guidance to the end of the round instead (measured in docs/strength.md).

Options: those of ``mcts`` (``iterations`` — default 200 when no time is given —, ``time_ms``,
``epsilon``, ``exact_nodes`` — default 4000, 0 at two players), ``c_puct`` (default 1.5, 4.0 at two
players), ``root_prior`` (default on at two to four players, off at five; the two-seat search of
``both_seats`` always keeps the network's), ``value_weight`` (default 0.5), ``both_seats`` (default off: at two players, search the
other seat's picks by the network too, see :meth:`AlphaBot._search_both`) and ``weights`` (an ``.npz``
file; default: the shipped networks, one for two players and one for three to five). An option given explicitly applies at every table size. With an
iteration budget the bot is deterministic for a given seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..sushi_go.actions import Pick, encode_action
from ..sushi_go.observation import Observation
from ..sushi_go.rules import State
from .features import check_observation, encode
from .mcts import MCTSBot, policy_pick
from .nn import Network, TableNetworks
from .options import flag, number
from .registry import register
from .search import Node, most_visited, puct, softmax
from .search import run as run_search
from .sg_tools import canonical_picks

#: the PUCT constant and the exact endgame's node limit with three to five players (and the dummy)
C_PUCT = 1.5
EXACT_NODES = 4000
#: two players without the dummy: lean on the network's prior and search to the round's end instead
#: of the exact endgame, whose greedy model of the other seat the fine-tuned network beats
#: (docs/strength.md, "What was tried for alpha at two players")
TWO_PLAYER_C_PUCT = 4.0


class PriorNode(Node):
    """A search node that also keeps the network's policy logits at its position (``None`` until the
    first iteration reaches it, which is when the network is asked) and the priors computed from them,
    per set of legal picks: different determinisations offer different picks, but the same few sets
    come back again and again, and the softmax was a fifth of an iteration's time.

    Public as the node type of ``alpha``'s tree, beside :class:`~.search.Node`: code that studies the
    search (or checks that the ``priors`` cache changes its speed, not its play) builds on it."""

    __slots__ = ("logits", "priors")

    def __init__(self) -> None:
        super().__init__()
        self.logits: Any = None
        self.priors: dict[tuple[Any, ...], list[float]] = {}


class _Pair:
    """A node of the two-player decoupled search: per seat, the network's logits there, the priors
    computed from them (per set of legal picks) and a :class:`Node` whose children hold that seat's
    statistics per pick; the children of the pair are keyed by the pair of picks."""

    __slots__ = ("children", "logits", "priors", "stats")

    def __init__(self) -> None:
        self.children: dict[tuple[Any, Any], _Pair] = {}
        self.logits: Any = None
        self.priors: tuple[dict[Any, Any], dict[Any, Any]] = ({}, {})
        self.stats: tuple[Node, Node] = (Node(), Node())


class AlphaBot(MCTSBot):
    """Sushi Go! IS-MCTS with the network as prior and leaf value (see the module docstring)."""

    name = "alpha"
    default_iterations = 200

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        time_ms: float | None = None,
        c_puct: float | None = None,
        value_weight: float = 0.5,
        weights: str | None = None,
        epsilon: float = 0.15,
        exact_nodes: int | None = None,
        both_seats: bool = False,
        root_prior: bool | None = None,
    ) -> None:
        super().__init__(
            seed=seed,
            iterations=iterations,
            time_ms=time_ms,
            epsilon=epsilon,
            exact_nodes=EXACT_NODES if exact_nodes is None else exact_nodes,
        )
        self.c_puct_option = None if c_puct is None else number(c_puct, "c_puct")
        self.exact_nodes_option = None if exact_nodes is None else self.exact_nodes
        self.c_puct = C_PUCT if self.c_puct_option is None else self.c_puct_option
        self.value_weight = number(value_weight, "value_weight", float, 0.0, 1.0)
        self.nets = TableNetworks(weights)
        self.net: Network = self.nets(2)
        self.both_seats = flag(both_seats, "both_seats")
        self.root_prior_option = None if root_prior is None else flag(root_prior, "root_prior")
        self.root_prior = True

    # ------------------------------------------------------------------ network

    def _leaf_observation(self, root: Observation, st: State, seat: int) -> Observation:
        """The seat's observation of a search state, with the real game's earlier rounds and scores."""
        leaf = st.observe(seat)
        totals = list(root.scores.get("totals") or [0] * len(st.tableaux))
        for pts in st.round_points:
            totals = [t + p["total"] for t, p in zip(totals, pts)]
        return replace(
            leaf,
            scores={"totals": totals},
            earlier_tableaux=root.earlier_tableaux + tuple(t for t, _ in st.finished),
            earlier_on_wasabi=root.earlier_on_wasabi + tuple(w for _, w in st.finished),
        )

    def _evaluate(self, root: Observation, st: State, seat: int) -> tuple[Any, float]:
        logits, values = self.net.forward([encode(self._leaf_observation(root, st, seat))])
        return logits[0], float(values[0])

    def _evaluate_both(self, root: Observation, st: State, seat: int, other: int) -> tuple[Any, float]:
        """Both seats' logits at ``st`` and the value for ``seat`` (the mean of its own value and the
        complement of the other's), in one forward pass."""
        rows = [encode(self._leaf_observation(root, st, s)) for s in (seat, other)]
        logits, values = self.net.forward(rows)
        return (logits[0], logits[1]), 0.5 * (float(values[0]) + 1.0 - float(values[1]))

    def _priors(self, node: PriorNode, options: list[Pick]) -> list[float]:
        return self._softmax(node.logits, options)

    def _leaf_value(self, root: Observation, st: State, seat: int, v_net: float) -> float:
        """A new node's value: ``value_weight`` × the network's plus the rest × a rollout's result."""
        lam = self.value_weight
        if lam >= 1.0:
            return v_net
        rollout = st.clone()
        self._play_out(root, rollout, seat, False)
        return lam * v_net + (1.0 - lam) * self._reward(root, rollout)

    def _softmax(self, logits: Any, options: list[Pick]) -> list[float]:
        return softmax([float(v) for v in self.net.pick_logits(logits, options)])

    # ------------------------------------------------------------------ search

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns the most visited root pick after the search budget (or the exact endgame's best)."""
        obs = check_observation(observation)
        self.memory.update(obs)
        seat = obs.seat if obs.seat is not None else self.seat
        legal = list(legal)
        if len(legal) == 1:
            self.last_info = {"mode": "forced"}
            return legal[0]
        two = obs.players == 2 and not obs.config.dummy
        self.net = self.nets(obs.players)
        if self.c_puct_option is None:
            self.c_puct = TWO_PLAYER_C_PUCT if two else C_PUCT
        if self.exact_nodes_option is None:
            self.exact_nodes = 0 if two else EXACT_NODES
        self.root_prior = obs.players < 5 if self.root_prior_option is None else self.root_prior_option
        known, slots, pool = self._sampler(obs)
        if not slots and not obs.config.dummy and self.exact_nodes > 0:
            choice = self._exact(obs, seat, legal)
            if choice is not None:
                return choice
        root_legal = canonical_picks(legal)
        by_key = {encode_action(p): p for p in root_legal}
        if two and self.both_seats:
            return self._search_both(obs, seat, known, slots, pool, root_legal, by_key)
        root = PriorNode()
        if self.root_prior:
            root.logits, _ = self._root_eval(obs)
        else:
            root.priors[tuple(by_key)] = [1.0 / len(root_legal)] * len(root_legal)
        c = self.c_puct
        rng = self.rng

        def iteration(root: PriorNode) -> tuple[list[PriorNode], float]:
            st = self._sample(obs, known, slots, pool)
            r = st.round
            node = root
            path = [root]
            while True:
                options = root_legal if node is root else canonical_picks(st.legal_actions(seat))
                keys = [encode_action(p) for p in options]
                sig = tuple(keys)
                priors = node.priors.get(sig)
                if priors is None:
                    priors = node.priors[sig] = self._priors(node, options)
                parent_q = node.wins / node.visits if node.visits else 0.5
                best_i = puct(node.children, keys, priors, c, parent_q, new=PriorNode)
                child = node.children[keys[best_i]]
                picks = [
                    options[best_i] if s == seat else policy_pick(st, s, rng, self.epsilon)
                    for s in range(st.players)
                ]
                st.resolve_unchecked(picks)
                path.append(child)
                node = child
                if st.round != r or st.is_over():
                    return path, self._reward(obs, st)
                if node.logits is None:
                    node.logits, v_net = self._evaluate(obs, st, seat)
                    return path, self._leaf_value(obs, st, seat, v_net)

        it = run_search(self.budget, root, iteration)
        self.last_info = {"mode": "alpha", "iterations": it}
        return by_key[most_visited(root, sorted(by_key))]

    def _search_both(
        self,
        obs: Observation,
        seat: int,
        known: list[list[Any]],
        slots: list[tuple[int, int]],
        pool: list[Any],
        root_legal: list[Pick],
        by_key: dict[Any, Pick],
    ) -> Pick:
        """Two players: a decoupled search in which the other seat chooses by the network too.

        Each node keeps, for both seats, the network's logits at that seat's observation and the
        statistics of its own picks; each seat selects by PUCT on its own statistics, blind to the
        other's choice (the picks are simultaneous), and a child is the pair of picks. Against a strong
        player this is a better model than the greedy rollout policy, whose best response the
        one-sided tree would otherwise learn.
        """
        other = 1 - seat
        c = self.c_puct
        root = _Pair()
        # the other seat's root prior from one sample: its hand may be hidden on a round's first turn
        sample = self._sample(obs, known, slots, pool)
        logits, _ = self.net.forward([encode(obs), encode(self._leaf_observation(obs, sample, other))])
        root.logits = (logits[0], logits[1])

        def choose(
            stats: Node, logits: Any, priors_cache: dict[Any, Any], options: list[Pick]
        ) -> tuple[int, Any, Node]:
            keys = [encode_action(p) for p in options]
            sig = tuple(keys)
            priors = priors_cache.get(sig)
            if priors is None:
                priors = priors_cache[sig] = self._softmax(logits, options)
            # the seat's mean over the picks offered now (in this sample), not over all it ever chose
            n_all = 0
            w_all = 0.0
            for k in keys:
                ch = stats.children.get(k)
                if ch is not None:
                    n_all += ch.visits
                    w_all += ch.wins
            parent_q = w_all / n_all if n_all else 0.5
            j = puct(stats.children, keys, priors, c, parent_q)
            return j, keys[j], stats.children[keys[j]]

        def iteration() -> None:
            st = self._sample(obs, known, slots, pool)
            r = st.round
            node = root
            touched: list[Node] = []
            while True:
                mine = root_legal if node is root else canonical_picks(st.legal_actions(seat))
                theirs = canonical_picks(st.legal_actions(other))
                i0, k0, s0 = choose(node.stats[0], node.logits[0], node.priors[0], mine)
                i1, k1, s1 = choose(node.stats[1], node.logits[1], node.priors[1], theirs)
                touched.append(s0)
                touched.append(s1)
                picks: list[Any] = [None, None]
                picks[seat] = mine[i0]
                picks[other] = theirs[i1]
                st.resolve_unchecked(picks)
                if st.round != r or st.is_over():
                    reward = self._reward(obs, st)
                    break
                child = node.children.get((k0, k1))
                if child is None:
                    child = node.children[(k0, k1)] = _Pair()
                    child.logits, v_net = self._evaluate_both(obs, st, seat, other)
                    reward = self._leaf_value(obs, st, seat, v_net)
                    break
                node = child
            for i, ch in enumerate(touched):
                ch.visits += 1
                ch.wins += reward if i % 2 == 0 else 1.0 - reward

        it = 0
        for it in self.budget.count():  # noqa: B007 - `it` is the count reported
            iteration()
        self.last_info = {"mode": "alpha-both", "iterations": it}
        return by_key[most_visited(root.stats[0], sorted(by_key))]

    def _root_eval(self, obs: Observation) -> tuple[Any, float]:
        logits, values = self.net.forward([encode(obs)])
        return logits[0], float(values[0])


register("alpha", "sushi-go", AlphaBot)
