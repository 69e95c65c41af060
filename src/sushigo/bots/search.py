"""The tree search shared by the ``mcts`` bots of every game and by ``alpha``.

All four searches (Sushi Go! ``mcts`` and ``alpha``, Sushi Roll ``mcts``, Party ``mcts``) grow one tree
over the searching seat's own actions only; the other seats, chance and hidden cards are sampled
afresh in every iteration. What differs between games is how one iteration walks a sampled game, so
that part stays with each bot; what is the same lives here, once: the node, the iteration loop under a
:class:`~.budget.SearchBudget` with the back-up of each iteration's reward, the "expand one untried
action, else take the best by UCB1" step, and the final choice of the most visited root action.

Keeping them in one place is what keeps the bots comparable: a change to the budget or to the
selection rule reaches every game at once instead of drifting between copies.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

from .base import BaseBot
from .budget import SearchBudget
from .options import number

K = TypeVar("K", bound=Hashable)
N = TypeVar("N", bound="Node")


class Node:
    """A tree node: one of the searching seat's actions, reached along the path from the root.

    ``wins`` is the sum of the rewards (in [0, 1]) of the iterations that passed through it, ``visits``
    their number and ``avail`` how many times the action was legal when its parent was reached: in an
    information-set search the legal actions differ between samples, so a rarely available action must
    not look under-explored only because the parent was visited often.
    """

    __slots__ = ("avail", "children", "visits", "wins")

    def __init__(self) -> None:
        self.children: dict[Any, Any] = {}
        self.visits = 0
        self.wins = 0.0
        self.avail = 0


def run(budget: SearchBudget, root: N, iteration: Callable[[N], tuple[Sequence[Node], float]]) -> int:
    """Runs ``iteration(root)`` until ``budget`` is spent, backing each reward up its path.

    ``iteration`` samples a game, walks it from ``root`` and returns the nodes it passed through (the
    root first) and the reward of the finished sample. Returns the number of iterations run (0 when the
    budget allowed none), which the bots report in ``last_info``.
    """
    it = 0
    for it in budget.count():  # noqa: B007 - `it` is the count returned
        path, reward = iteration(root)
        for n in path:
            n.visits += 1
            n.wins += reward
    return it


def expand_or_select(
    node: Node, keys: Sequence[Hashable], rng: random.Random, c: float, *, availability: bool = True
) -> tuple[int, bool]:
    """One step down the tree among the actions ``keys``: ``(index, new)``.

    If some action has no child yet, one of them is picked at random and its child created
    (``new`` is ``True``; the caller then leaves the tree and plays the sample out). Otherwise the
    action with the best UCB1 value ``wins/visits + c * sqrt(log(n) / visits)`` is taken, the first
    on ties. With ``availability`` (the information-set searches) ``n`` is the child's availability
    count, which this step raises for every action offered; without it ``n`` is the parent's visits
    plus one, the plain UCB1 of Sushi Roll's open-loop search.
    """
    children = node.children
    untried = [i for i, k in enumerate(keys) if k not in children]
    if untried:
        i = untried[rng.randrange(len(untried))]
        children[keys[i]] = Node()
        if availability:
            for k in keys:
                if k in children:
                    children[k].avail += 1
        return i, True
    best_v, best = -1.0, 0
    if availability:
        for j, k in enumerate(keys):
            ch = children[k]
            ch.avail += 1
            v = ch.wins / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if v > best_v:
                best_v, best = v, j
    else:
        logn = math.log(node.visits + 1)
        for j, k in enumerate(keys):
            ch = children[k]
            v = ch.wins / ch.visits + c * math.sqrt(logn / ch.visits)
            if v > best_v:
                best_v, best = v, j
    return best, False


def softmax(scores: Sequence[float]) -> list[float]:
    """The probabilities of ``scores`` (the largest subtracted first, so that none overflows): the
    prior each ``alpha`` search makes of its network's scores."""
    top = max(scores)
    e = [math.exp(s - top) for s in scores]
    total = sum(e)
    return [v / total for v in e]


def puct(
    children: dict[Any, Any],
    keys: Sequence[Hashable],
    priors: Sequence[float],
    c: float,
    parent_q: float,
    *,
    new: Callable[[], Node] = Node,
    sqrt_n: float | None = None,
    untried_first: bool = False,
) -> int:
    """Index of the action with the best ``Q + c · P · sqrt(N) / (1 + n)`` among ``keys`` (the first on
    ties): the selection step of the three ``alpha`` searches, which differ only in what ``N`` counts.

    With ``sqrt_n`` ``None`` (the information-set searches) ``N`` is each action's availability: every
    offered action counts as available, its child created with ``new`` when missing. With ``sqrt_n``
    given (Sushi Roll's open-loop search) it is that root of the parent's visits, and no child is
    created here. An unvisited action's ``Q`` is ``parent_q``; with ``untried_first`` the unvisited
    actions come before every visited one.
    """
    best, best_i = -math.inf, 0
    for j, k in enumerate(keys):
        ch = children.get(k)
        if sqrt_n is None:
            if ch is None:
                ch = children[k] = new()
            ch.avail += 1
            root_n = math.sqrt(ch.avail)
        else:
            root_n = sqrt_n
        visits = ch.visits if ch is not None else 0
        q = ch.wins / visits if ch is not None and visits else parent_q
        u = q + c * priors[j] * root_n / (1 + visits)
        if untried_first and not visits:
            u += 1e9
        if u > best:
            best, best_i = u, j
    return best_i


def most_visited(root: Node, keys: Iterable[K]) -> K:
    """The root action visited most; on ties (and among unvisited actions) the first in ``keys``.

    Each bot passes its keys in the order that breaks its ties, so a seeded game replays the same.
    """
    best: K | None = None
    best_n = -2
    for k in keys:
        ch = root.children.get(k)
        n = ch.visits if ch is not None else -1
        if n > best_n:
            best, best_n = k, n
    if best is None:
        raise ValueError("most_visited needs at least one action")
    return best


class SearchBot(BaseBot):
    """The common constructor of the search bots: a budget, the exploration constant and the rollout's
    randomness.

    ``iterations`` and/or ``time_ms`` make the :class:`~.budget.SearchBudget` (``default_iterations``
    when neither is given), ``c`` is the UCB1 exploration constant and ``epsilon`` the share of random
    moves in the other seats' policy. Each bot keeps its own ``__init__`` with its own defaults (its
    parameters are its options, read by :func:`sushigo.bots.make_bot`) and passes them here.
    ``last_info`` describes the last decision (``mode``, ``iterations``).
    """

    #: iterations of a search given neither ``iterations`` nor ``time_ms``
    default_iterations = 200

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        time_ms: float | None = None,
        c: float = 0.7,
        epsilon: float = 0.1,
    ) -> None:
        super().__init__(seed)
        self.budget = SearchBudget.of(
            None if iterations is None else number(iterations, "iterations", int, 1),
            None if time_ms is None else number(time_ms, "time_ms", float, 0.0),
            default_iterations=self.default_iterations,
        )
        self.c = number(c, "c")
        self.epsilon = number(epsilon, "epsilon", float, 0.0, 1.0)
        self.last_info: dict[str, Any] = {}
