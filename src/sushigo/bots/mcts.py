"""The ``mcts`` bot: information-set Monte Carlo tree search for Sushi Go! (and Sushi Roll, elsewhere).

Each iteration samples a *determinization* consistent with what the seat knows: the unseen cards (the
deck minus every card in this round's tableaux, the hands the seat has held, and the cards it saw in
earlier rounds, which it remembers in :class:`~.sg_tools.CardMemory`) are dealt at random into the
hands it has not seen (respecting their sizes, and the dummy pile) and the draw pile. The bot then builds
its own private :class:`~sushigo.sushi_go.rules.State` from that sample (never the real one) and plays
it forward with :meth:`~sushigo.sushi_go.rules.State.resolve_unchecked`.

Simultaneous picks: the tree branches on the searching seat's own picks only (single-observer
IS-MCTS, UCB1 with availability counts because different determinizations allow different picks); the
other seats' picks, at tree nodes and in the rollout, come from a cheap stochastic greedy policy
(epsilon-greedy over immediate value plus partial-set credit). Each simulation ends at the end of the
current round and is scored by the seat's margin over the best other player (totals so far, this
round's points and the pudding race, weighted by how much of the game is left), squashed to [0, 1].

Exact endgame: once every card of the round is located (every hand is known and nothing of the round is
hidden, e.g. from turn ``players - 1`` on), the bot stops sampling and searches *all* of its own pick
sequences to the end of the round, with the other seats playing the deterministic greedy policy.
"Exact" therefore means exact over the bot's own choices against that fixed model of the others, not a
game-theoretic solution of the simultaneous-move endgame. It is used when the tree has at most
``exact_nodes`` nodes (default 4000), otherwise the search stays MCTS.

Options: ``iterations`` (default 400 when no time is given) or ``time_ms`` (wall-clock budget for the
whole move: the exact endgame may use half of it and gives up when that runs out, and the tree search
gets what is left, with the budget's few minimum iterations), ``c`` (UCB exploration, default 0.7),
``epsilon`` (rollout randomness, default 0.15), ``exact_nodes``. With an iteration budget the bot is deterministic for a given seed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from ..sushi_go.actions import Pick, encode_action, single
from ..sushi_go.cards import Card
from ..sushi_go.observation import Observation
from ..sushi_go.rules import State, final_pudding_points
from .budget import SearchBudget
from .options import number
from .registry import register
from .search import Node, SearchBot, expand_or_select, most_visited
from .search import run as run_search
from .sg_tools import (
    CHOPSTICKS,
    DUMPLING,
    DUMPLING_STEP,
    ICONS,
    NIGIRI,
    PUDDING,
    SASHIMI,
    SOY,
    STEPS,
    TEMPURA,
    WASABI,
    WASABI_FACTOR,
    CardMemory,
    canonical_picks,
    unseen_counts,
)

_CARDS = tuple(Card)
_TEMPURA_STEP = STEPS[TEMPURA] or ()
_SASHIMI_STEP = STEPS[SASHIMI] or ()


def _quick_value(card: int, counts: list[int], free: int, left: int) -> float:
    """Cheap rollout value of one card for a tableau with ``counts`` and ``free`` wasabi."""
    # a completed set scores its points (the card types' steps); a started one gets partial credit
    if card == TEMPURA:
        return _TEMPURA_STEP[counts[TEMPURA]] or 2.5
    if card == SASHIMI:
        n = counts[SASHIMI]
        return _SASHIMI_STEP[n] or ((3.5 if _SASHIMI_STEP[n + 1] else 2.0) if left >= 2 else 0.0)
    if card == DUMPLING:
        return DUMPLING_STEP[counts[DUMPLING]] + 0.5
    v = NIGIRI[card]
    if v:
        return WASABI_FACTOR * v if free else v
    if card == WASABI:
        return 2.5 if left >= 3 else 0.3
    i = ICONS[card]
    if i:
        return 1.2 * i
    if card == PUDDING:
        return 2.0
    if card == CHOPSTICKS:
        return 1.5 if left >= 4 and not counts[CHOPSTICKS] else 0.0
    if card == SOY:
        return 0.0 if counts[SOY] else 2.0
    return 0.0


def policy_pick(state: State, seat: int, rng: random.Random | None, epsilon: float) -> Pick:
    """The rollout policy: epsilon-greedy over :func:`_quick_value`; a deterministic greedy without RNG."""
    hand = state.hands[seat]
    ctrl = state.config.dummy and seat == state.controller
    if rng is not None and rng.random() < epsilon:
        own = hand[rng.randrange(len(hand))]
        if ctrl:
            rest = hand[:]
            rest.remove(own)
            return Pick((own,), rest[rng.randrange(len(rest))])
        return single(own)
    tableau = state.tableaux[seat]
    counts = [0] * 13
    for c in tableau:
        counts[c] += 1
    free = state.free_wasabi[seat]
    left = len(hand)
    best = -1.0
    second = -1.0
    best_c = hand[0]
    second_c = hand[0]
    seen = 0
    for c in hand:
        bit = 1 << c
        if seen & bit:
            continue
        seen |= bit
        v = _quick_value(c, counts, free, left)
        if v > best:
            second, second_c = best, best_c
            best, best_c = v, c
        elif v > second:
            second, second_c = v, c
    if state.chopsticks[seat] and len(hand) >= (3 if ctrl else 2):
        # second card, re-valued after the first
        counts[best_c] += 1
        f2 = free + (1 if best_c == WASABI else -1 if NIGIRI[best_c] and free else 0)
        rest = hand[:]
        rest.remove(best_c)
        b2, c2 = -1.0, rest[0]
        for c in rest:
            v = _quick_value(c, counts, f2, left - 1)
            if v > b2:
                b2, c2 = v, c
        if b2 >= 4.0:
            if ctrl:
                rest.remove(c2)
                return Pick((_CARDS[best_c], _CARDS[c2]), _CARDS[rest[0]])
            return Pick((_CARDS[best_c], _CARDS[c2]))
    if ctrl:
        rest = hand[:]
        rest.remove(best_c)
        d = rest[rng.randrange(len(rest))] if rng is not None else rest[0]
        return Pick((_CARDS[best_c],), _CARDS[d])
    _ = second_c
    return single(_CARDS[best_c])


def build_state(obs: Observation, hands: list[list[Card]], pile: list[Card]) -> State:
    """Builds a private :class:`State` for search from an observation and sampled hidden cards.

    The position is the observed round, turn, tableaux and puddings, with ``hands`` and ``pile`` as
    sampled (the engine's :meth:`State.from_position`).
    """
    return State.from_position(
        obs.config,
        round=obs.round,
        turn=obs.turn,
        hands=hands,
        pile=pile,
        tableaux=obs.tableaux,
        on_wasabi=obs.on_wasabi,
        puddings=obs.puddings,
        dummy_controller=obs.dummy_controller,
    )


class MCTSBot(SearchBot):
    """Sushi Go! IS-MCTS player (see the module docstring)."""

    name = "mcts"
    default_iterations = 400

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        time_ms: float | None = None,
        c: float = 0.7,
        epsilon: float = 0.15,
        exact_nodes: int = 4000,
    ) -> None:
        super().__init__(seed, iterations, time_ms, c, epsilon)
        self.exact_nodes = number(exact_nodes, "exact_nodes", int, 0)
        self.memory = CardMemory()

    def reset(self, seat: int, game: str, players: int) -> None:
        """Forgets the previous game."""
        super().reset(seat, game, players)
        self.memory = CardMemory()

    # ------------------------------------------------------------------ sampling

    def _sampler(self, obs: Observation) -> tuple[list[list[Card]], list[tuple[int, int]], list[Card]]:
        """Known parts of every hand, the (hand, missing count) slots, and the unseen card pool."""
        unseen = unseen_counts(obs, self.memory)
        pool = [_CARDS[k] for k in range(len(unseen)) for _ in range(unseen[k])]
        known: list[list[Card]] = []
        slots: list[tuple[int, int]] = []
        for h, size in enumerate(obs.hand_sizes):
            part = obs.known_hands[h] if h < len(obs.known_hands) else None
            cards = list(part) if part is not None else []
            known.append(cards)
            if size > len(cards):
                slots.append((h, size - len(cards)))
        return known, slots, pool

    def _sample(
        self, obs: Observation, known: list[list[Card]], slots: list[tuple[int, int]], pool: list[Card]
    ) -> State:
        rng = self.rng
        cards = pool[:]
        rng.shuffle(cards)
        hands = [h[:] for h in known]
        i = 0
        for h, need in slots:
            take = cards[i : i + need]
            if len(take) < need:  # cannot happen with consistent memory; pad to keep the sample valid
                take += [_CARDS[rng.randrange(12)] for _ in range(need - len(take))]
            hands[h].extend(take)
            i += need
        return build_state(obs, hands, cards[i:])

    # ------------------------------------------------------------------ evaluation

    def _reward(self, obs: Observation, st: State) -> float:
        seat = obs.seat if obs.seat is not None else self.seat
        totals = list(obs.scores.get("totals") or [0] * len(st.tableaux))
        pts = st.round_points[-1] if st.round_points else None
        if pts is not None:
            totals = [t + p["total"] for t, p in zip(totals, pts)]
        pud = final_pudding_points(obs.config, st.puddings)
        w = (0.45, 0.7, 1.0)[obs.round]
        vals = [t + w * p for t, p in zip(totals, pud)]
        me = vals[seat]
        others = [vals[i] for i in range(obs.players) if i != seat]
        best = max(others)
        diff = me - best
        scale = 4.0 if obs.round == 2 else 9.0
        lin = (me - sum(others) / len(others)) / 60.0
        return 0.8 / (1.0 + math.exp(-diff / scale)) + 0.2 * max(0.0, min(1.0, 0.5 + lin))

    def _play_out(self, obs: Observation, st: State, seat: int, greedy_only: bool) -> None:
        rng = None if greedy_only else self.rng
        r = st.round
        players = st.players
        eps = self.epsilon
        while st.round == r and not st.is_over():
            picks = [policy_pick(st, s, rng, eps) for s in range(players)]
            st.resolve_unchecked(picks)

    # ------------------------------------------------------------------ search

    def _exact(
        self, obs: Observation, seat: int, legal: list[Pick], deadline: float | None = None
    ) -> Pick | None:
        """Exhaustive search of own pick sequences to the round's end; ``None`` if the tree is too big or
        the ``deadline`` (a ``time.perf_counter()`` value) passes first."""
        size = len(obs.hand)
        estimate, width = 0, 1
        for k in range(size, 1, -1):
            width *= k * (2 if Card.CHOPSTICKS in obs.tableaux[seat] or Card.CHOPSTICKS in obs.hand else 1)
            estimate += width
        if estimate > self.exact_nodes:
            return None
        hands = [list(h) for h in obs.known_hands]  # type: ignore[arg-type]
        root = build_state(obs, hands, [])
        budget = [self.exact_nodes]

        def value(st: State) -> float | None:
            budget[0] -= 1
            if budget[0] < 0 or (deadline is not None and time.perf_counter() >= deadline):
                return None
            r = st.round
            if st.round != obs.round or st.is_over():
                return self._reward(obs, st)
            own = canonical_picks(st.legal_actions(seat))
            others = [policy_pick(st, s, None, 0.0) if s != seat else None for s in range(st.players)]
            best = -1.0
            for p in own:
                child = st.clone()
                others[seat] = p
                child.resolve_unchecked(others)  # type: ignore[arg-type]
                v = value(child) if child.round == r and not child.is_over() else self._reward(obs, child)
                if v is None:
                    return None
                best = max(best, v)
            return best

        scores: list[tuple[float, int, Pick]] = []
        others = [policy_pick(root, s, None, 0.0) if s != seat else None for s in range(root.players)]
        for i, p in enumerate(canonical_picks(legal)):
            if deadline is not None and time.perf_counter() >= deadline:
                return None
            child = root.clone()
            others[seat] = p
            child.resolve_unchecked(others)  # type: ignore[arg-type]
            v = value(child) if child.round == obs.round and not child.is_over() else self._reward(obs, child)
            if v is None:
                return None
            scores.append((v, -i, p))
        scores.sort(key=lambda x: (x[0], x[1]), reverse=True)
        self.last_info = {"mode": "exact", "nodes": self.exact_nodes - budget[0]}
        return scores[0][2]

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns the most visited root pick after the search budget (or the exact search's best)."""
        obs: Observation = observation
        start = time.perf_counter()
        self.memory.update(obs)
        seat = obs.seat if obs.seat is not None else self.seat
        legal = list(legal)
        if len(legal) == 1:
            self.last_info = {"mode": "forced"}
            return legal[0]
        known, slots, pool = self._sampler(obs)
        budget = self.budget
        if not slots and not obs.config.dummy:
            limit = budget.time_ms
            deadline = None if limit is None else start + limit / 2000.0
            choice = self._exact(obs, seat, legal, deadline)
            if choice is not None:
                return choice
        if budget.time_ms is not None:  # the tree search gets what is left of the move's budget
            spent = (time.perf_counter() - start) * 1000.0
            budget = SearchBudget(budget.iterations, max(0.0, budget.time_ms - spent))
        root_legal = canonical_picks(legal)
        by_key = {encode_action(p): p for p in root_legal}
        rng = self.rng

        def iteration(root: Node) -> tuple[list[Node], float]:
            st = self._sample(obs, known, slots, pool)
            r = st.round
            node = root
            path = [root]
            while st.round == r and not st.is_over():
                options = root_legal if node is root else canonical_picks(st.legal_actions(seat))
                keys = [encode_action(p) for p in options]
                i, new = expand_or_select(node, keys, rng, self.c)
                picks = [
                    options[i] if s == seat else policy_pick(st, s, rng, self.epsilon)
                    for s in range(st.players)
                ]
                st.resolve_unchecked(picks)
                node = node.children[keys[i]]
                path.append(node)
                if new:
                    break  # below the newly expanded node: play out
            self._play_out(obs, st, seat, False)
            return path, self._reward(obs, st)

        root = Node()
        it = run_search(budget, root, iteration)
        self.last_info = {"mode": "mcts", "iterations": it}
        return by_key[most_visited(root, sorted(by_key))]


register("mcts", "sushi-go", MCTSBot)
