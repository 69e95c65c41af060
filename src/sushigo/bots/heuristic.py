"""The ``heuristic`` bot: a hand-tuned Sushi Go! player following the strategy notes.

It counts cards: the cards still in circulation this round are the hands it has seen plus, for hands it
has not, the unseen cards in proportion (deck minus everything it can account for, with earlier rounds
remembered by :class:`~.sg_tools.CardMemory`). From that it estimates how many more of each kind it
can still expect to take this round, and values a pick as (every card's points, set sizes and
multipliers are the card types', read by :mod:`.sg_tools`; the other numbers are the bot's tuning):

* tempura and sashimi: the set's points times the (Poisson) chance of completing it;
* dumplings: the step it adds at the expected final count;
* nigiri: tripled on a free wasabi; an egg on a wasabi loses a little when better nigiri are coming;
* wasabi: the expected bonus of the best nigiri it can still expect, worth nothing late in a round;
* maki and pudding: the change in its expected race points, projected over pessimistic, expected and
  optimistic scenarios of the other seats' future takes (puddings across the rest of the game);
* chopsticks: worth a second card only while enough turns remain; pairs are used when the second card
  is worth more than keeping the chopsticks;
* soy sauce: its points times a rough chance of having the most colours;
* denial: part of what the card would complete for the seat that receives this hand — a little at
  three or more players, more at two, where every point denied is a point of margin (measured: the
  two-player weight 1.0 beats the old 0.25 in 59.5% of 400 games on fresh deals, 95% CI 54.6–64.2%;
  docs/strength.md).

As the dummy's controller it gives the dummy the card the opponent wants most (the opponent receives the
hand), avoiding maki and pudding that strengthen the dummy's races. Options: ``denial`` (default
1.0 at two players without the dummy, 0.25 otherwise).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..sushi_go.actions import Pick
from ..sushi_go.cards import DUMPLING_TYPE
from ..sushi_go.observation import Observation
from ..sushi_go.rules import final_pudding_points
from .base import BaseBot
from .registry import register
from .sg_tools import (
    CHOPSTICKS,
    DUMPLING,
    DUMPLING_STEP,
    EGG,
    ICONS,
    MAKI_KINDS,
    NIGIRI,
    NIGIRI_KINDS,
    PUDDING,
    SALMON,
    SETS,
    SOY,
    SOY_POINTS,
    SQUID,
    WASABI,
    WASABI_FACTOR,
    CardMemory,
    counts_of,
    free_wasabi,
    greedy_value,
    maki_points,
    marginal_points,
    unseen_counts,
)
from .sg_tools import N as N_KINDS


def _dumpling_table() -> tuple[tuple[int, ...], int]:
    """The dumpling type's points by count up to the count from which more dumplings add nothing."""
    steps = DUMPLING_STEP
    cap = max((n + 1 for n, step in enumerate(steps) if step), default=0)
    cap = max(cap, 2)
    return tuple(DUMPLING_TYPE.points(n) for n in range(cap + 1)), cap


_DUMPLINGS, _DUMPLING_CAP = _dumpling_table()


def dumpling_curve(x: float) -> float:
    """Dumpling points at a fractional count: the parabola through the dumpling type's points at the
    three nearest counts (for 1/3/6/10/15 that is ``x(x+1)/2``), flat from the count where they stop
    growing."""
    x = min(max(x, 0.0), float(_DUMPLING_CAP))
    m = min(int(x), _DUMPLING_CAP - 2)
    p0, p1, p2 = _DUMPLINGS[m], _DUMPLINGS[m + 1], _DUMPLINGS[m + 2]
    f = x - m
    return p0 + f * (p1 - p0) + f * (f - 1) / 2 * (p2 - 2 * p1 + p0)


def _p_at_least(m: int, lam: float) -> float:
    """P(Poisson(lam) >= m)."""
    if m <= 0:
        return 1.0
    term = math.exp(-lam)
    total = term
    for k in range(1, m):
        term *= lam / k
        total += term
    return max(0.0, 1.0 - total)


def _colours(cards: Sequence[int]) -> int:
    from ..sushi_go.cards import COLOUR, Card

    return len({COLOUR[Card(c)] for c in cards})


class HeuristicBot(BaseBot):
    """Sushi Go! expert heuristic (see the module docstring)."""

    name = "heuristic"

    #: the denial weight by default: two-player games without the dummy, and the rest
    DENIAL_TWO_PLAYERS = 1.0
    DENIAL = 0.25

    def __init__(self, seed: int | None = None, denial: float | None = None) -> None:
        super().__init__(seed)
        #: ``None``: the default of the game's setting, chosen when the bot acts
        self.denial_option = None if denial is None else float(denial)
        self.denial = self.DENIAL if denial is None else float(denial)
        self.memory = CardMemory()

    def reset(self, seat: int, game: str, players: int) -> None:
        """Forgets the previous game."""
        super().reset(seat, game, players)
        self.memory = CardMemory()

    # ------------------------------------------------------------------ estimates

    def _expectations(self, obs: Observation, seat: int) -> tuple[list[float], float]:
        """Expected copies of each kind this seat may still take this round, and the picks left."""
        hand = obs.known_hands[seat] or obs.hand
        picks_left = max(0, len(hand) - 1)
        unseen = unseen_counts(obs, self.memory)
        n_unseen = sum(unseen)
        circ = [0.0] * N_KINDS
        unknown_cards = 0
        for h, size in enumerate(obs.hand_sizes):
            if h == seat:
                continue
            known = obs.known_hands[h] if h < len(obs.known_hands) else None
            if known is not None:
                for c in known:
                    circ[c] += 1
                unknown_cards += size - len(known)
            else:
                unknown_cards += size
        if n_unseen:
            for k in range(N_KINDS):
                circ[k] += unknown_cards * unseen[k] / n_unseen
        own_back = 0.3 if len(hand) - 1 > obs.players else 0.0
        for c in hand:
            circ[c] += own_back
        total = sum(obs.hand_sizes) - len(hand) + len(hand) - 1
        if total <= 0 or picks_left == 0:
            return [0.0] * N_KINDS, picks_left
        share = min(1.0, 1.6 * picks_left / total)
        return [min(circ[k], circ[k] * share) for k in range(N_KINDS)], picks_left

    def _maki_value(self, obs: Observation, seat: int, add: int, exp_icons: float) -> float:
        icons = [sum(ICONS[c] for c in t) for t in obs.tableaux]
        if not add:
            return 0.0
        total = 0.0
        for scale in (0.0, 1.0, 2.0):
            proj = [x + scale * exp_icons for x in icons]
            before = maki_points(proj)[seat]
            proj[seat] += add
            total += maki_points(proj)[seat] - before
        return total / 3

    def _pudding_value(self, obs: Observation, seat: int, unseen: Sequence[int]) -> float:
        k = len(obs.puddings)
        rounds_left = 2 - obs.round
        hand_total = sum(obs.hand_sizes)
        future = unseen[PUDDING] * min(1.0, rounds_left * obs.config.hand_size * k / max(1, sum(unseen)))
        future += sum(1 for h in obs.known_hands if h is not None for c in h if c == PUDDING)
        future = max(0.0, future - 1)
        per = future / k if hand_total or rounds_left else 0.0
        total = 0.0
        for spread in (-1.0, 0.0, 1.0):
            proj = [p + per * (1 + spread * (0.5 if i != seat else -0.5)) for i, p in enumerate(obs.puddings)]
            base = final_pudding_points(obs.config, [round(x * 4) for x in proj])
            proj[seat] += 1
            after = final_pudding_points(obs.config, [round(x * 4) for x in proj])
            total += after[seat] - base[seat]
        return total / 3 + 0.5

    # ------------------------------------------------------------------ values

    def card_value(
        self,
        obs: Observation,
        seat: int,
        card: int,
        counts: list[int],
        free: int,
        exp: list[float],
        picks_left: float,
        unseen: Sequence[int],
    ) -> float:
        """Value of ``seat`` adding ``card`` to a tableau with ``counts`` and ``free`` wasabi."""
        kind = SETS.get(card)
        if kind is not None:  # tempura, sashimi: the set's points times the chance to complete it
            size, points = kind
            return points * _p_at_least(size - 1 - counts[card] % size, exp[card])
        if card == DUMPLING:
            d = counts[DUMPLING]
            e = exp[DUMPLING] * 0.7
            return dumpling_curve(d + 1 + e) - dumpling_curve(d + e)
        if NIGIRI[card]:
            if free > 0:
                v = float(WASABI_FACTOR * NIGIRI[card])
                if card == EGG:
                    v -= 2.0 * _p_at_least(1, exp[SALMON] + exp[SQUID])
                return v
            return float(NIGIRI[card])
        if card == WASABI:
            if picks_left < 2:
                return 0.0
            e_n = sum(exp[c] for c in NIGIRI_KINDS)
            if e_n <= 0:
                return 0.0
            avg = sum(exp[c] * NIGIRI[c] for c in NIGIRI_KINDS) / e_n
            owed = free  # wasabi already waiting take the first nigiri
            # the bonus a wasabi adds to a nigiri of that value, times the chance one comes
            return (WASABI_FACTOR - 1) * avg * _p_at_least(owed + 1, e_n * 0.9)
        if ICONS[card]:
            e_icons = sum(exp[c] * ICONS[c] for c in MAKI_KINDS)
            return self._maki_value(obs, seat, ICONS[card], e_icons / max(1, obs.players - 1) * 1.2)
        if card == PUDDING:
            return self._pudding_value(obs, seat, unseen)
        if card == CHOPSTICKS:
            if counts[CHOPSTICKS]:
                return 0.3 if picks_left >= 4 else 0.0
            return 3.0 if picks_left >= 4 else (1.0 if picks_left >= 3 else 0.0)
        if card == SOY:
            if counts[SOY]:
                return 0.0
            tab = obs.tableaux
            mine = _colours([*tab[seat], SOY]) + min(picks_left, 3) * 0.5
            others = max(
                (_colours(t) + min(picks_left, 3) * 0.5 for i, t in enumerate(tab) if i != seat), default=0
            )
            return SOY_POINTS * (0.75 if mine >= others + 1 else 0.45 if mine >= others else 0.15)
        return 0.0

    def own_value(self, obs: Observation, seat: int, cards: Sequence[int], ctx: dict[str, Any]) -> float:
        """Value of ``seat`` taking ``cards`` (one, or two with chopsticks)."""
        t = obs.tableaux[seat]
        counts = counts_of(t)
        free = free_wasabi(t, obs.on_wasabi[seat])
        value = 0.0
        for i, card in enumerate(cards):
            value += self.card_value(
                obs, seat, card, counts, free, ctx["exp"], ctx["left"] - i, ctx["unseen"]
            )
            if card == WASABI:
                free += 1
            elif NIGIRI[card] and free > 0:
                free -= 1
            counts[card] += 1
        if len(cards) == 2:
            value -= 1.5 if ctx["left"] >= 4 else 0.5
        nxt = ctx["next"]
        if self.denial and nxt is not None and nxt != seat:
            nt = obs.tableaux[nxt]
            nc = counts_of(nt)
            nf = free_wasabi(nt, obs.on_wasabi[nxt])
            value += self.denial * max(marginal_points((c,), nc, nf) for c in cards) * 0.5
        return value

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns the legal pick with the highest heuristic value."""
        obs: Observation = observation
        self.memory.update(obs)
        seat = obs.seat if obs.seat is not None else self.seat
        if self.denial_option is None:
            two = obs.players == 2 and not obs.config.dummy
            self.denial = self.DENIAL_TWO_PLAYERS if two else self.DENIAL
        exp, left = self._expectations(obs, seat)
        unseen = unseen_counts(obs, self.memory)
        if obs.config.dummy:
            nxt: int | None = 1 - seat
        else:
            nxt = (seat + obs.config.direction(obs.round)) % obs.players
        ctx = {"exp": exp, "left": left, "unseen": unseen, "next": nxt}
        opp = 1 - seat if obs.config.dummy else None
        cache: dict[tuple[int, ...], float] = {}
        best: list[Pick] = []
        best_v = float("-inf")
        for pick in legal:
            key = tuple(int(c) for c in pick.cards)
            v = cache.get(key)
            if v is None:
                v = cache[key] = self.own_value(obs, seat, key, ctx)
            if pick.dummy is not None and opp is not None:
                d = int(pick.dummy)
                ot = obs.tableaux[opp]
                v += 0.6 * greedy_value((d,), counts_of(ot), free_wasabi(ot, obs.on_wasabi[opp]), 0.0)
                if ICONS[d] or d == PUDDING:
                    v -= 1.0 + ICONS[d] * 0.3
            if v > best_v + 1e-9:
                best, best_v = [pick], v
            elif abs(v - best_v) <= 1e-9:
                best.append(pick)
        return best[self.rng.randrange(len(best))]


register("heuristic", "sushi-go", HeuristicBot)
