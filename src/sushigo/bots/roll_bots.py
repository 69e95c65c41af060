"""Sushi Roll bots: ``greedy``, ``heuristic`` (plays as greedy) and ``mcts`` for ``game="sushi-roll"``.

Everything on a Sushi Roll table is public; only future rolls are hidden. The bots read the
:class:`~sushigo.sushi_roll.observation.Observation` alone.

* :class:`RollGreedyBot` takes the die whose face adds the most to its tray now (appetizer set steps,
  nigiri tripled on a free wasabi, a fixed value per maki icon, pudding and token icons). It never
  re-rolls or swaps.
* :class:`RollMCTSBot` is open-loop Monte Carlo tree search with chance nodes sampled: each iteration
  rebuilds a private game from the observation with its own RNG (so every re-roll and every slide
  rolls fresh faces), walks a tree over the seat's own actions (UCB1), lets the other seats play the
  greedy policy, and plays out to the end of the round, scored like the Sushi Go! MCTS (margin over the
  best other seat, squashed). Its candidate actions are every take, re-rolls of one die, of all dice
  and of all dice but the best, and the most promising swaps (menu and chopsticks use); after a re-roll
  or swap the same seat decides again, in the tree. Options: ``iterations`` (default 300) or
  ``time_ms``, ``c`` (0.7), ``epsilon`` (0.1), ``max_swaps`` (4).

They are registered for Sushi Roll as ``greedy``, ``heuristic`` and ``mcts``, and also under their
older names ``roll-greedy`` and ``roll-mcts``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from ..sushi_roll.actions import Reroll, Swap, Take
from ..sushi_roll.dice import DiceSet
from ..sushi_roll.faces import NIGIRI_VALUES, SYMBOL_TYPE, parse_face
from ..sushi_roll.observation import Observation
from ..sushi_roll.rules import State
from ..sushi_roll.score import appetizer_points, free_wasabi, score_round
from .base import BaseBot
from .options import number
from .registry import register
from .search import Node, SearchBot, expand_or_select, most_visited
from .search import run as run_search

_APPETIZERS = ("dumpling", "tempura", "sashimi")


def face_value(face: str, icons: dict[str, int], free_wasabi: int, dice_left: int) -> float:
    """Immediate value of adding ``face`` to a tray with ``icons`` counts and ``free_wasabi``."""
    f = parse_face(face)
    s = f.symbol
    if s in _APPETIZERS:
        n = icons.get(s, 0)
        gain = appetizer_points(s, n + f.icons) - appetizer_points(s, n)
        return gain + (0.8 if s != "dumpling" and (n + f.icons) % 3 else 0.0)
    if s in NIGIRI_VALUES:
        return NIGIRI_VALUES[s] * (3.0 if free_wasabi else 1.0)
    if s == "wasabi":
        return 2.5 if dice_left >= 3 else 0.3
    if s == "maki":
        return 1.3 * f.icons
    if s == "pudding":
        return 1.2 * f.icons
    if s in ("menu", "chopsticks"):
        return 0.6 * f.icons
    return 0.0


def _tray_state(tray: Sequence[str]) -> tuple[dict[str, int], int]:
    icons: dict[str, int] = {}
    for name in tray:
        f = parse_face(name)
        icons[f.symbol] = icons.get(f.symbol, 0) + f.icons
    return icons, free_wasabi(tray)


def best_take(belt: Sequence[str], tray: Sequence[str]) -> tuple[int, float]:
    """Position and value of the best die to take from ``belt`` for ``tray``."""
    icons, free = _tray_state(tray)
    best, best_v = 0, -1.0
    for i, face in enumerate(belt):
        v = face_value(face, icons, free, len(belt))
        if v > best_v:
            best, best_v = i, v
    return best, best_v


class RollGreedyBot(BaseBot):
    """Takes the die with the best immediate value (see the module docstring)."""

    name = "greedy"

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns the best :class:`Take`."""
        obs: Observation = observation
        seat = obs.seat if obs.seat is not None else self.seat
        belt = obs.belts[seat]
        icons, free = _tray_state(obs.trays[seat])
        values = [face_value(f, icons, free, len(belt)) for f in belt]
        top = max(values)
        best = [i for i, v in enumerate(values) if v >= top - 1e-9]
        pos = best[self.rng.randrange(len(best))]
        for a in legal:
            if isinstance(a, Take) and a.position == pos:
                return a
        return legal[0]


def build_roll_state(obs: Observation, rng: random.Random) -> State:
    """Rebuilds a private game from the public table, rolling its future chance from ``rng``."""
    to_act = obs.to_act[0] if obs.to_act else obs.red_belt

    def dice(faces: Sequence[str]) -> list[tuple[str, str]]:
        return [(SYMBOL_TYPE[parse_face(f).symbol], f) for f in faces]

    return State.from_position(
        obs.players,
        DiceSet(obs.dice_faces),
        rng,
        red_seat=obs.red_belt,
        round=obs.round,
        cycle=obs.cycle,
        taken=(to_act - obs.red_belt) % obs.players,
        belts=[dice(b) for b in obs.belts],
        trays=[[dice(t) for t in past] for past in obs.past_trays] + [[dice(t) for t in obs.trays]],
        menu=obs.menu,
        chopsticks=obs.chopsticks,
        pudding=obs.pudding,
        supply={"menu": obs.supply_menu, "chopsticks": obs.supply_chopsticks, "pudding": obs.supply_pudding},
    )


def candidate_actions(st: State, seat: int, max_swaps: int) -> list[Take | Reroll | Swap]:
    """The actions the search considers: takes, a few re-rolls and the most promising swaps."""
    belt = [f for _, f in st.belts[seat]]
    tray = [f for _, f in st.trays[-1][seat]]
    out: list[Take | Reroll | Swap] = [Take(i) for i in range(len(belt))]
    icons, free = _tray_state(tray)
    values = [face_value(f, icons, free, len(belt)) for f in belt]
    if st.menu[seat] > 0 and belt:
        best = max(range(len(belt)), key=lambda i: values[i])
        rolls = {tuple(range(len(belt)))}
        rest = tuple(i for i in range(len(belt)) if i != best)
        if rest:
            rolls.add(rest)
        rolls.update((i,) for i in range(len(belt)))
        out.extend(Reroll(r) for r in sorted(rolls))
    if st.chopsticks[seat] > 0 and belt:
        worst = min(range(len(belt)), key=lambda i: values[i])
        gains = []
        for other in range(st.players):
            if other == seat:
                continue
            for j, (_, f) in enumerate(st.belts[other]):
                v = face_value(f, icons, free, len(belt))
                if v > max(values) + 1.0:
                    gains.append((v, other, j))
        gains.sort(reverse=True)
        out.extend(Swap(worst, o, j) for _, o, j in gains[:max_swaps])
    return out


class RollMCTSBot(SearchBot):
    """Open-loop MCTS for Sushi Roll with sampled chance (see the module docstring)."""

    name = "mcts"
    default_iterations = 300

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        time_ms: float | None = None,
        c: float = 0.7,
        epsilon: float = 0.1,
        max_swaps: int = 4,
        exact_nodes: int = 0,
    ) -> None:
        super().__init__(seed, iterations, time_ms, c, epsilon)
        self.max_swaps = number(max_swaps, "max_swaps", int, 0)
        del exact_nodes  # accepted for option compatibility with the Sushi Go! mcts

    def _policy(self, st: State, s: int, rng: random.Random) -> Take:
        belt = st.belts[s]
        if rng.random() < self.epsilon:
            return Take(rng.randrange(len(belt)))
        pos, _ = best_take([f for _, f in belt], [f for _, f in st.trays[-1][s]])
        return Take(pos)

    def _reward(self, obs: Observation, st: State, seat: int) -> float:
        totals = list(obs.scores)
        if len(st.round_points) > len(obs.past_trays):
            totals = [t + sheet["total"] for t, sheet in zip(totals, st.round_points[len(obs.past_trays)])]
        else:
            totals = [
                t + sheet["total"]
                for t, sheet in zip(totals, score_round([[f for _, f in t] for t in st.trays[-1]]))
            ]
        w = (0.4, 0.7, 1.0)[min(obs.round, 2)]
        vals = [
            t + w * 1.0 * p + 0.5 * (m + c) * w
            for t, p, m, c in zip(totals, st.pudding, st.menu, st.chopsticks)
        ]
        me = vals[seat]
        others = [v for i, v in enumerate(vals) if i != seat]
        diff = me - max(others)
        lin = (me - sum(others) / len(others)) / 60.0
        return 0.8 / (1.0 + math.exp(-diff / (4.0 if obs.round == 2 else 8.0))) + 0.2 * max(
            0.0, min(1.0, 0.5 + lin)
        )

    def _root_options(
        self, obs: Observation, seat: int, legal: list[Take | Reroll | Swap]
    ) -> list[Take | Reroll | Swap]:
        """The root's actions: the legal ones among :func:`candidate_actions` (a hook, so that
        ``alpha`` can widen the set with the network's favourites without copying the search)."""
        probe = build_roll_state(obs, random.Random(0))
        return [a for a in candidate_actions(probe, seat, self.max_swaps) if a in legal] or legal[:1]

    def _select(
        self,
        node: Node,
        at_root: bool,
        obs: Observation,
        st: State,
        opts: Sequence[Take | Reroll | Swap],
        keys: Sequence[str],
    ) -> tuple[int, bool]:
        """One step down the tree among ``opts`` (keyed ``keys``) in the sample ``st``: ``(index, new)``
        as :func:`~.search.expand_or_select`, UCB1 here; a hook for ``alpha``'s PUCT with a prior."""
        del at_root, obs, st, opts
        return expand_or_select(node, keys, self.rng, self.c, availability=False)

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns the root action visited most."""
        obs: Observation = observation
        seat = obs.seat if obs.seat is not None else self.seat
        legal = list(legal)
        rng = self.rng
        root_opts = self._root_options(obs, seat, legal)
        if len(root_opts) == 1:
            self.last_info = {"mode": "forced"}
            return root_opts[0]
        rounds_done = len(obs.past_trays)

        def iteration(root: Node) -> tuple[list[Node], float]:
            st = build_roll_state(obs, random.Random(rng.getrandbits(64)))
            node = root
            path = [root]
            in_tree = True
            while len(st.round_points) == rounds_done and not st.is_over():
                s = st.current_seat
                if s is None:
                    break
                if s == seat and in_tree:
                    at_root = node is root
                    opts = root_opts if at_root else candidate_actions(st, seat, self.max_swaps)
                    keys = [a.to_text() for a in opts]
                    i, new = self._select(node, at_root, obs, st, opts, keys)
                    in_tree = not new
                    st.apply_unchecked(s, opts[i])
                    node = node.children[keys[i]]
                    path.append(node)
                else:
                    st.apply_unchecked(s, self._policy(st, s, rng))
            return path, self._reward(obs, st, seat)

        root = Node()
        it = run_search(self.budget, root, iteration)
        keys = [a.to_text() for a in root_opts]
        self.last_info = {"mode": "mcts", "iterations": it}
        return root_opts[keys.index(most_visited(root, keys))]


class RollHeuristicBot(RollGreedyBot):
    """``heuristic`` for Sushi Roll: there is no separate Roll heuristic yet, so it plays as greedy."""

    name = "heuristic"


register("greedy", "sushi-roll", RollGreedyBot)
register("heuristic", "sushi-roll", RollHeuristicBot)
register("mcts", "sushi-roll", RollMCTSBot)
register("roll-greedy", "sushi-roll", RollGreedyBot)  # older names, kept for scripts that use them
register("roll-mcts", "sushi-roll", RollMCTSBot)
