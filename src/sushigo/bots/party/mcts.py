"""The Party ``mcts`` bot: information-set Monte Carlo tree search over the seat's own decisions.

Each iteration deals the cards the seat cannot see (:func:`unseen_pool`) into the unseen hands, the
deck and the dessert pile (:func:`sample_hidden`), builds a :class:`~sushigo.party.rules.PartyState`
from the observation and that sample (:meth:`~sushigo.party.rules.PartyState.from_observation`), and
plays the round out: the tree branches on the seat's own decisions — its secret picks and, unless
``search_choices`` is off, the mid-turn ones (chopsticks' card, a spoon's request, the variant it gives
when another seat's spoon names a type, how it places what a spoon brought, a menu's pick, a takeout
box's flips) — and every other decision comes from :func:`rollout_action` (an epsilon-greedy
heuristic). A mid-turn decision is searched from its own position too (the resolve phase rebuilt
from the observation) among the heuristic's best :data:`MIDTURN_CANDIDATES` actions, with at most
:data:`MIDTURN_PER_ACTION` iterations per action it weighs: a choice between two variants to give
needs far fewer samples than a pick among ten cards, and the budget is never exceeded.

What the rebuilt resolve phase cannot know it leaves out: bonus actions other seats declared with
this turn's picks and have not used yet are not public, so the sampled turn has none; and a spoon or
chopsticks that went back this turn into a hand the seat has not seen is dealt with the other unseen
cards rather than into that hand.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from ...party.actions import Ask, Flip, Give, Play
from ...party.cards import IS_DESSERT, VARIANTS
from ...party.position import kept_from_observation
from ...party.rules import PartyState
from ..budget import SearchBudget
from ..options import flag
from ..registry import register
from ..search import Node, SearchBot, expand_or_select, most_visited
from ..search import run as run_search
from .policy import PartyPolicy, observed_decision, observed_values
from .position import Position


def unseen_pool(obs: Any) -> list[int]:
    """The physical cards ``obs``'s seat cannot locate, exactly: the box for this menu minus its hand,
    the hands it knows, every tableau (face-down cards were played face up), this round's discards,
    the menu cards it drew and the desserts kept in finished rounds (a special order kept as a dessert
    is the special order). What is left lies in the deck, the dessert pile and the hands it has not
    held, so the sample fills exactly those places."""
    from ...party.rules import box_cards

    deck, desserts = box_cards(obs.config)
    left: dict[int, int] = {}
    for c in (*deck, *desserts):
        left[int(c)] = left.get(int(c), 0) + 1

    def take(c: int) -> None:
        if left.get(c, 0) > 0:
            left[c] -= 1

    for h in obs.known_hands:
        for c in h or ():
            take(c)
    if obs.known_hands[obs.seat] is None:
        for c in obs.hand:
            take(c)
    for row in obs.tableaux:
        for card, *_ in row:
            take(card)
    for c in obs.discards:
        take(c)
    for c in obs.menu_drawn or ():
        take(c)
    for row in kept_from_observation(obs):
        for card, _k in row:
            take(card)
    return [c for c in sorted(left) for _ in range(left[c])]


def sample_hidden(
    obs: Any, pool: list[int], rng: random.Random
) -> tuple[list[list[int]], list[int], list[int]]:
    """Deals ``pool`` (the observer's :func:`unseen_pool`) at random into the places ``obs``'s seat
    cannot see: ``(hands, deck, pile)``, every seat's hand (the observer's own and those it knows as
    they are, the others sampled at their sizes), the deck at its size and the dessert pile (desserts
    only). With that, :meth:`~sushigo.party.rules.PartyState.from_observation` builds a state the seat
    cannot tell from the real one: the ``mcts`` bot's determinisation, public for other search code
    on Party observations (a seat's view is all a bot has, so ``PartyState.determinize`` does not
    apply)."""
    cards = pool[:]
    rng.shuffle(cards)
    cfg = obs.config
    pile_size = max(0, 15 - sum(cfg.desserts_added[: obs.round + 1]))
    desserts = [i for i, c in enumerate(cards) if IS_DESSERT[c]]
    chosen = set(desserts[:pile_size])
    pile = [cards[i] for i in sorted(chosen)]
    rest = [c for i, c in enumerate(cards) if i not in chosen]
    hands: list[list[int]] = []
    i = 0
    menu_types = [t for t in cfg.menu[:-1]]
    for s, size in enumerate(obs.hand_sizes):
        known = obs.known_hands[s]
        if s == obs.seat:
            hands.append(list(obs.hand))
        elif known is not None:
            hands.append(list(known))
        else:
            take = rest[i : i + size]
            i += size
            while len(take) < size:  # only with inconsistent counts: keep the sample playable
                take.append(int(VARIANTS[menu_types[rng.randrange(len(menu_types))]][0]))
            hands.append(take)
    deck = rest[i : i + obs.deck_size]
    return hands, deck, pile


def rollout_action(
    state: Any,
    seat: int,
    policy: PartyPolicy,
    rng: random.Random,
    epsilon: float,
    cache: dict[str, Any] | None = None,
) -> Any:
    """The rollout policy on a private state: epsilon-random, else the heuristic's best by card value.

    ``cache`` keeps the position of a choose phase for every seat of that turn (the tableaux do not
    change until the last pick is in)."""
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    if rng.random() < epsilon:
        return legal[rng.randrange(len(legal))]
    first = legal[0]
    if isinstance(first, Ask | Give | Flip):
        # quick choices: ask for a card the holders to the left have (the private state knows them)
        if isinstance(first, Ask):
            item = state.current
            found = [a for a in legal if state.spoon_search(item.seat, a.name) is not None]
            return found[rng.randrange(len(found))] if found else legal[0]
        if isinstance(first, Flip):
            return max(legal, key=lambda f: len(f.refs)) if rng.random() < 0.5 else legal[0]
        return legal[0]
    if cache is not None and state.phase == "choose":
        key = (state.round, state.turn)
        if cache.get("key") != key:
            cache["key"], cache["pos"] = key, Position.of_state(state)
        pos = cache["pos"]
    else:
        pos = Position.of_state(state)
    hand = state.hands[seat]
    plain = [a for a in legal if not a.bonus]
    scored = policy.choose(pos, seat, hand, plain or legal, 2 - state.round)
    return max(scored, key=lambda x: x[0])[1]


#: a mid-turn search branches on the heuristic's best few legal actions (a spoon may name some thirty
#: cards, a takeout box offer a hundred sets of flips: too many to tell apart by sampling) ...
MIDTURN_CANDIDATES = 6
#: ... and runs at most this many iterations per action it branches on (never more than the budget) ...
MIDTURN_PER_ACTION = 16
#: ... and at least this many when the budget allows
MIDTURN_MIN = 32
#: below the root, the seat's own mid-turn decisions branch in the tree when they offer at most this
#: many actions (chopsticks' or a menu's card, a gift, a placement); more (a spoon's names, most
#: takeout boxes) are left to the rollout policy, which has no ranking to prune them by
MIDTURN_TREE_MAX = 12


def flip_translation(real: Sequence[Any], state: Any, seat: int) -> dict[int, int] | None:
    """Maps the round-log positions in ``real`` (the observed takeout-box flips) onto ``state``'s.

    A state rebuilt from an observation places only the cards still in the tableaux, so its log
    positions differ from the game's where cards left; the flippable cards are the same ones in the
    same order (every flip option's refs together are all of them), so the k-th maps onto the k-th.
    ``None`` when the counts differ (a state that is not the observed position)."""
    refs = sorted({r for a in real if isinstance(a, Flip) for r in a.refs})
    mine = [e.index for e in state.table.flippable(seat)]
    return dict(zip(refs, mine)) if len(refs) == len(mine) else None


class PartyMCTSBot(SearchBot):
    """Party IS-MCTS player (see the module docstring).

    ``search_choices=False`` leaves the mid-turn decisions to the heuristic, at the root and in the
    tree, as before they were searched (kept to measure the difference in a mixed table)."""

    name = "mcts"
    default_iterations = 100

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        time_ms: float | None = None,
        c: float = 0.7,
        epsilon: float = 0.1,
        search_choices: bool = True,
    ) -> None:
        super().__init__(seed, iterations, time_ms, c, epsilon)
        self.policy = PartyPolicy(greedy=False)
        self.search_choices = flag(search_choices, "search_choices")

    def _reward(self, obs: Any, st: Any, seat: int) -> float:
        from ...party.score import dessert_points

        totals = list(obs.scores.get("totals") or [0] * obs.players)
        if st.round_points:
            totals = [t + p["total"] for t, p in zip(totals, st.round_points[-1])]
        else:  # the round did not finish (cannot happen in a full playout): score the table as it is
            from ...party.score import score_table

            totals = [t + p["total"] for t, p in zip(totals, score_table(st.table))]
        w = (0.4, 0.7, 1.0)[obs.round]
        des = dessert_points(obs.config, st.dessert_counts())
        vals = [t + w * d for t, d in zip(totals, des)]
        me = vals[seat]
        others = [vals[i] for i in range(obs.players) if i != seat]
        diff = me - max(others)
        lin = (me - sum(others) / len(others)) / 60.0
        scale = 5.0 if obs.round == 2 else 10.0
        return 0.8 / (1.0 + math.exp(-diff / scale)) + 0.2 * max(0.0, min(1.0, 0.5 + lin))

    def midturn_budget(self, actions: int) -> SearchBudget:
        """The budget of a mid-turn search among ``actions`` legal actions: the bot's, capped at
        :data:`MIDTURN_PER_ACTION` iterations per action (at least :data:`MIDTURN_MIN`)."""
        cap = max(MIDTURN_MIN, MIDTURN_PER_ACTION * actions)
        b = self.budget
        return SearchBudget(cap if b.iterations is None else min(b.iterations, cap), b.time_ms)

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """The most visited root action after the budget (a pick, or a mid-turn decision)."""
        obs = observation
        legal = list(legal)
        seat = obs.seat if obs.seat is not None else self.seat
        if len(legal) == 1:
            self.last_info = {"mode": "forced"}
            return legal[0]
        midturn = obs.phase != "choose"
        if midturn and not self.search_choices:
            self.last_info = {"mode": "heuristic"}
            return observed_decision(self, self.policy, obs, legal)
        full = legal  # every flip option together names every flippable card (flip_translation)
        if midturn and len(legal) > MIDTURN_CANDIDATES:
            legal = self.candidates(obs, legal)
        pool = unseen_pool(obs)
        res = obs.resolving or {}
        if midturn and res.get("step") == "place" and isinstance(legal[0], Play):
            # the card the seat's spoon brought is between hands: located, not hidden
            pool.remove(int(legal[0].card))
        by_key = {a.to_text(): a for a in legal}
        keys = [a.to_text() for a in legal]
        flips = midturn and isinstance(legal[0], Flip)
        rng = self.rng
        search_choices = self.search_choices

        def root_options(st: Any) -> list[Any]:
            if not flips:
                return legal
            table = flip_translation(full, st, seat)
            if table is None:  # cannot happen for a state rebuilt from this observation
                raise AssertionError("the rebuilt state's flippable cards differ from the observation's")
            return [Flip(tuple(sorted(table[r] for r in a.refs))) for a in legal]

        def iteration(root: Node) -> tuple[list[Node], float]:
            hands, deck, pile = sample_hidden(obs, pool, rng)
            st = PartyState.from_observation(obs, hands, deck, pile)
            r = st.round
            node: Node | None = root
            path = [root]
            cache: dict[str, Any] = {}
            while st.round == r and not st.is_over():
                for s in st.to_act():
                    if st.round != r or st.is_over():
                        break
                    if s == seat and node is not None and (search_choices or st.phase == "choose"):
                        if node is root:
                            options, names = root_options(st), keys
                        else:
                            options = st.legal_actions(seat)
                            if len(options) > MIDTURN_TREE_MAX and st.phase != "choose":
                                # too many to branch on without the observation's ranking: play on
                                st.submit(s, rollout_action(st, s, self.policy, rng, self.epsilon, cache))
                                node = None
                                continue
                            names = [tree_key(st, a) for a in options]
                        if len(options) == 1 and st.phase != "choose":  # a forced step is no edge
                            st.submit(s, options[0])
                            continue
                        i, new = self.select(node, names, options, st, seat, obs)
                        st.submit(s, options[i])
                        path.append(node.children[names[i]])
                        node = None if new else path[-1]  # below a new node the rollout plays on
                    else:
                        st.submit(s, rollout_action(st, s, self.policy, rng, self.epsilon, cache))
            return path, self._reward(obs, st, seat)

        root = Node()
        budget = self.midturn_budget(len(legal)) if midturn else self.budget
        it = run_search(budget, root, iteration)
        if midturn:
            self.last_info = {"mode": "mcts", "iterations": it, "phase": obs.phase, "decision": decision(obs)}
        else:
            self.last_info = {"mode": "mcts", "iterations": it}
        return by_key[most_visited(root, self.tie_order(keys, midturn))]

    def select(
        self, node: Node, names: list[str], options: list[Any], st: Any, seat: int, obs: Any
    ) -> tuple[int, bool]:
        """One step down the tree at one of the seat's decisions in the sampled state ``st``: ``(index,
        new)`` as :func:`~sushigo.bots.search.expand_or_select`, which this bot uses (UCB1 with
        availability counts). A hook so that ``alpha`` can select by PUCT with a network's prior
        without a second copy of the iteration; ``obs`` is the real observation searched from."""
        return expand_or_select(node, names, self.rng, self.c)

    def tie_order(self, keys: list[str], midturn: bool) -> list[str]:
        """The root actions (by text, ``keys`` in the candidates' order) in the order that breaks ties
        in visits: the heuristic's at a mid-turn decision (its best first), else the texts' reverse
        order. A hook, so that ``alpha`` can break them by its prior instead."""
        return keys if midturn else sorted(keys, reverse=True)

    def candidates(self, obs: Any, legal: list[Any]) -> list[Any]:
        """The :data:`MIDTURN_CANDIDATES` legal actions the heuristic values most, best first (on equal
        values the takeout box's option that flips fewer cards, else the earlier one)."""
        values = observed_values(self.policy, obs, legal)
        ranked = sorted(
            range(len(legal)),
            key=lambda i: (-values[i], len(legal[i].refs) if isinstance(legal[i], Flip) else 0, i),
        )
        return [legal[i] for i in ranked[:MIDTURN_CANDIDATES]]


def tree_key(st: Any, action: Any) -> str:
    """An action's edge in the tree: its text, after the item's card and step in the resolve phase, so
    that a mid-turn decision never shares an edge with a pick of the same text."""
    if st.phase == "choose" or st.current is None:
        return str(action.to_text())
    return f"{st.current.kind.name}/{st.current.step}|{action.to_text()}"


def decision(obs: Any) -> str:
    """The mid-turn decision ``obs`` asks for, as ``card type/step`` (``spoon/ask``, ``menu/go``)."""
    from ...party.actions import parse_key
    from ...party.cards import TYPE_OF

    res = obs.resolving or {}
    card = res.get("card")
    kind = TYPE_OF[parse_key(card)].name if isinstance(card, str) else "?"
    return f"{kind}/{res.get('step', '?')}"


register("mcts", "sushi-go-party", PartyMCTSBot)
