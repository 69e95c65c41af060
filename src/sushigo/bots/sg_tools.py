"""Sushi Go! knowledge shared by the built-in bots: card counting, card values and a bot memory.

Everything here works from a seat's :class:`~sushigo.sushi_go.observation.Observation` (and what a bot
remembers of earlier observations); nothing reads a game state. :class:`CardMemory` keeps the cards a
seat has seen in earlier rounds, which the observation no longer shows; :func:`unseen_counts` is the
deck minus every card the seat can account for. :func:`marginal_points` is the immediate value of adding
cards to a tableau ("what sets a card completes"), which ``greedy`` ranks by and the MCTS rollout
policy uses.

Card values are never written here: :data:`STEPS`, :data:`SETS`, :data:`NIGIRI`, :data:`WASABI_FACTOR`,
:data:`ICONS`, :data:`MAKI_PLACES` and :data:`SOY_POINTS` are read once, at import, from the card types
Sushi Go! scores with (:mod:`sushigo.sushi_go.cards`), so changing a card's scoring there changes what
every Sushi Go! bot values. :func:`card_facts` does the reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..sushi_go.actions import Pick
from ..sushi_go.cards import (
    COUNTS,
    DUMPLING_TYPE,
    MAKI_TYPE,
    NIGIRI_TYPE,
    SASHIMI_TYPE,
    TEMPURA_TYPE,
    Card,
    deck_counts,
)
from ..sushi_go.observation import Observation
from ..sushi_go.score import soy_sauce_points

N = len(Card)
TEMPURA, SASHIMI, DUMPLING = int(Card.TEMPURA), int(Card.SASHIMI), int(Card.DUMPLING)
MAKI_1, MAKI_2, MAKI_3 = int(Card.MAKI_1), int(Card.MAKI_2), int(Card.MAKI_3)
EGG, SALMON, SQUID = int(Card.EGG_NIGIRI), int(Card.SALMON_NIGIRI), int(Card.SQUID_NIGIRI)
WASABI, CHOPSTICKS, PUDDING, SOY = (
    int(Card.WASABI),
    int(Card.CHOPSTICKS),
    int(Card.PUDDING),
    int(Card.SOY_SAUCE),
)


class CardFacts(NamedTuple):
    """The card values the bots use, by :class:`Card` index, as the card types define them."""

    #: points one more card adds at each count, for the cards scored by their count (tempura,
    #: sashimi, dumpling; ``None`` for the rest): ``STEPS[card][n] = points(n + 1) - points(n)``
    steps: tuple[tuple[int, ...] | None, ...]
    #: (cards in a set, points per set) of the set cards (tempura, sashimi)
    sets: dict[int, tuple[int, int]]
    #: face value of each nigiri (0 for the rest), and the wasabi multiplier
    nigiri: tuple[int, ...]
    wasabi_factor: int
    #: maki icons of each card (0 for the rest), and the points for most and second most icons
    icons: tuple[int, ...]
    maki_places: tuple[int, int]
    #: what a soy sauce scores for the one player with the most colours (scored by its card type)
    soy_points: int


def card_facts() -> CardFacts:
    """Reads :class:`CardFacts` from Sushi Go!'s card types (called once at import)."""
    most = sum(COUNTS.values())  # no tableau holds more cards of a kind than the deck
    steps: list[tuple[int, ...] | None] = [None] * N
    for t in (TEMPURA_TYPE, SASHIMI_TYPE, DUMPLING_TYPE):
        (card,) = t.variants
        steps[card] = tuple(t.points(n + 1) - t.points(n) for n in range(most + 1))
    sets = {
        TEMPURA: (TEMPURA_TYPE.SET_SIZE, TEMPURA_TYPE.SET_POINTS),
        SASHIMI: (SASHIMI_TYPE.SET_SIZE, SASHIMI_TYPE.SET_POINTS),
    }
    nigiri = tuple(NIGIRI_TYPE.values.get(c, 0) for c in Card)
    icons = dict(MAKI_TYPE.icons)
    first, second = MAKI_TYPE.PLACES
    return CardFacts(
        steps=tuple(steps),
        sets=sets,
        nigiri=nigiri,
        wasabi_factor=NIGIRI_TYPE.WASABI_FACTOR,
        icons=tuple(icons.get(c, 0) for c in Card),
        maki_places=(first, second),
        soy_points=soy_sauce_points([[Card.SOY_SAUCE]])[0],
    )


FACTS = card_facts()
STEPS = FACTS.steps
SETS = FACTS.sets
DUMPLING_STEP: tuple[int, ...] = STEPS[DUMPLING] or ()
NIGIRI = FACTS.nigiri
WASABI_FACTOR = FACTS.wasabi_factor
ICONS = FACTS.icons
MAKI_PLACES = FACTS.maki_places
SOY_POINTS = FACTS.soy_points
#: the nigiri and maki kinds, in card order
NIGIRI_KINDS = tuple(c for c in range(N) if NIGIRI[c])
MAKI_KINDS = tuple(c for c in range(N) if ICONS[c])


def counts_of(cards: Sequence[int]) -> list[int]:
    """Counts cards by kind (a list indexed by :class:`Card`)."""
    out = [0] * N
    for c in cards:
        out[c] += 1
    return out


def free_wasabi(tableau: Sequence[int], on_wasabi: Sequence[bool]) -> int:
    """Wasabi in ``tableau`` with no nigiri on them yet."""
    return sum(1 for c in tableau if c == WASABI) - sum(1 for w in on_wasabi if w)


class CardMemory:
    """What a seat remembers of earlier rounds: the cards it saw played, by kind.

    Call :meth:`update` with every observation. Within a round, the cards a seat knows (tableaux plus
    hands it has held) only grow, so the element-wise maximum of what it saw is a safe lower bound of
    the round's cards; when the round number moves on, that bound is added to the earlier rounds'.
    """

    def __init__(self) -> None:
        self.earlier = [0] * N
        self.round = -1
        self.this_round = [0] * N

    def update(self, obs: Observation) -> None:
        """Folds ``obs`` into the memory."""
        if obs.round != self.round:
            if self.round >= 0 and obs.round > self.round:
                self.earlier = [a + b for a, b in zip(self.earlier, self.this_round)]
            self.round = obs.round
            self.this_round = [0] * N
        seen = known_round_counts(obs)
        self.this_round = [max(a, b) for a, b in zip(self.this_round, seen)]


def known_round_counts(obs: Observation) -> list[int]:
    """Cards of the current round that ``obs`` shows: every tableau and every known hand."""
    out = [0] * N
    for t in obs.tableaux:
        for c in t:
            out[c] += 1
    for h in obs.known_hands:
        if h is not None:
            for c in h:
                out[c] += 1
    return out


def unseen_counts(obs: Observation, memory: CardMemory | None = None) -> list[int]:
    """The deck minus every card the seat can account for (this round's and remembered ones)."""
    left = deck_counts(obs.config.soy_sauce)
    seen = known_round_counts(obs)
    earlier = memory.earlier if memory is not None else [0] * N
    return [max(0, a - b - c) for a, b, c in zip(left, seen, earlier)]


def maki_points(icons: Sequence[float]) -> list[int]:
    """Maki majority points for (possibly projected, fractional) icon totals: :data:`MAKI_PLACES`
    to the most and second most, ties split and a tied first cancelling second (§1.4.1), as
    Sushi Go!'s maki type scores integer totals."""
    first_points, second_points = MAKI_PLACES
    n = len(icons)
    best = max(icons) if icons else 0
    out = [0] * n
    if best <= 0:
        return out
    top = [i for i in range(n) if icons[i] == best]
    if len(top) > 1:
        for i in top:
            out[i] = first_points // len(top)
        return out
    out[top[0]] = first_points
    rest = [x for x in icons if 0 < x < best]
    if rest:
        second = max(rest)
        sec = [i for i in range(n) if icons[i] == second]
        for i in sec:
            out[i] = second_points // len(sec)
    return out


def marginal_points(cards: Sequence[int], counts: Sequence[int], free: int) -> float:
    """Immediate points gained by adding ``cards`` (in order) to a tableau, maki and puddings aside."""
    c = list(counts)
    gained = 0.0
    for card in cards:
        steps = STEPS[card]
        if steps is not None:
            gained += steps[c[card]]
        elif NIGIRI[card]:
            if free > 0:
                gained += WASABI_FACTOR * NIGIRI[card]
                free -= 1
            else:
                gained += NIGIRI[card]
        elif card == WASABI:
            free += 1
        c[card] += 1
    return gained


#: Fixed credit greedy gives for progress that does not score yet (a half pair, a started set...);
#: for a set card, the credit of the card one short of completing it, less for earlier ones.
GREEDY_PARTIAL = {
    TEMPURA: 2.0,
    SASHIMI: 2.5,
    WASABI: 2.0,
    CHOPSTICKS: 0.5,
    PUDDING: 1.5,
    SOY: 1.0,
}


def greedy_value(cards: Sequence[int], counts: Sequence[int], free: int, maki_gain: float) -> float:
    """Greedy's score of taking ``cards``: immediate points, plus fixed partial-set credit and maki."""
    value = marginal_points(cards, counts, free) + maki_gain
    c = list(counts)
    for card in cards:
        kind = SETS.get(card)
        if kind is not None:
            # a card that does not complete a set: the credit times how far the set has come
            have, short = c[card] % kind[0], kind[0] - 1
            if have != short:
                value += GREEDY_PARTIAL[card] * (1 + have) / short
        elif card in GREEDY_PARTIAL:
            value += GREEDY_PARTIAL[card]
        c[card] += 1
    return value


def canonical_picks(legal: Sequence[Pick]) -> list[Pick]:
    """Drops chopsticks pairs whose order cannot matter (``a+b`` and ``b+a`` without wasabi)."""
    out: list[Pick] = []
    seen: set[tuple[int, int, int]] = set()
    for p in legal:
        if len(p.cards) == 2 and WASABI not in p.cards:
            a, b = sorted(p.cards)
            key = (a, b, -1 if p.dummy is None else int(p.dummy))
            if key in seen:
                continue
            seen.add(key)
        out.append(p)
    return out
