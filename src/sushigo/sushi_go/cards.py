"""Sushi Go! cards: names, counts, colours, the deck (rules.md §1.1) and each card's type.

Cards are small ints (:class:`Card`) so hands and tableaux stay cheap to copy and compare; their
lowercase names are the wire names of formats.md. Each card's scoring rule is a card type of
:mod:`sushigo.cards` (:data:`TYPE_OF`), shared with Sushi Go Party! where the formula is the same.
"""

from __future__ import annotations

from enum import IntEnum

from ..cards.appetizers import Dumpling, Sashimi, Tempura
from ..cards.base import CardType
from ..cards.desserts import Pudding
from ..cards.nigiri import Nigiri, Wasabi
from ..cards.rolls import Maki
from ..cards.specials import Chopsticks, SoySaucePromo
from ..errors import InvalidActionError


class Card(IntEnum):
    """One Sushi Go! card kind; ``card.wire`` is its formats.md name."""

    TEMPURA = 0
    SASHIMI = 1
    DUMPLING = 2
    MAKI_1 = 3
    MAKI_2 = 4
    MAKI_3 = 5
    EGG_NIGIRI = 6
    SALMON_NIGIRI = 7
    SQUID_NIGIRI = 8
    WASABI = 9
    CHOPSTICKS = 10
    PUDDING = 11
    SOY_SAUCE = 12

    @property
    def wire(self) -> str:
        """The formats.md name, e.g. ``"squid_nigiri"``."""
        return WIRE_NAMES[self]

    @classmethod
    def parse(cls, text: object) -> Card:
        """Parses a formats.md card name.

        :raises InvalidActionError: when ``text`` is not a card name.

        >>> Card.parse("maki_3")
        <Card.MAKI_3: 5>
        """
        card = _BY_NAME.get(text) if isinstance(text, str) else None
        if card is None:
            raise InvalidActionError(f"unknown card {text!r}")
        return card


ALL_CARDS: tuple[Card, ...] = tuple(Card)
N_KINDS = len(ALL_CARDS)
WIRE_NAMES: tuple[str, ...] = tuple(c.name.lower() for c in Card)
_BY_NAME: dict[str, Card] = {c.name.lower(): c for c in Card}

#: How many of each card the deck holds (soy sauce only with the promo).
COUNTS: dict[Card, int] = {
    Card.TEMPURA: 14,
    Card.SASHIMI: 14,
    Card.DUMPLING: 14,
    Card.MAKI_1: 6,
    Card.MAKI_2: 12,
    Card.MAKI_3: 8,
    Card.SALMON_NIGIRI: 10,
    Card.SQUID_NIGIRI: 5,
    Card.EGG_NIGIRI: 5,
    Card.WASABI: 6,
    Card.CHOPSTICKS: 4,
    Card.PUDDING: 10,
    Card.SOY_SAUCE: 4,
}

#: Maki icons per card (0 for everything else).
MAKI_ICONS: tuple[int, ...] = tuple({Card.MAKI_1: 1, Card.MAKI_2: 2, Card.MAKI_3: 3}.get(c, 0) for c in Card)

#: Face value of each nigiri before wasabi (0 for everything else).
NIGIRI_VALUE: tuple[int, ...] = tuple(
    {Card.EGG_NIGIRI: 1, Card.SALMON_NIGIRI: 2, Card.SQUID_NIGIRI: 3}.get(c, 0) for c in Card
)

#: Background colour, which matters only for the soy sauce promo (§1.6).
COLOUR: dict[Card, str] = {
    Card.TEMPURA: "purple",
    Card.SASHIMI: "green",
    Card.DUMPLING: "blue",
    Card.MAKI_1: "red",
    Card.MAKI_2: "red",
    Card.MAKI_3: "red",
    Card.EGG_NIGIRI: "yellow",
    Card.SALMON_NIGIRI: "yellow",
    Card.SQUID_NIGIRI: "yellow",
    Card.WASABI: "yellow",
    Card.CHOPSTICKS: "light_blue",
    Card.PUDDING: "pink",
    Card.SOY_SAUCE: "soy",
}

HAND_SIZE = {2: 10, 3: 9, 4: 8, 5: 7}


def deck_counts(soy_sauce: bool) -> list[int]:
    """Returns the number of copies of each card kind, indexed by :class:`Card`."""
    return [0 if (c is Card.SOY_SAUCE and not soy_sauce) else COUNTS[c] for c in Card]


def full_deck(soy_sauce: bool) -> list[Card]:
    """Returns the unshuffled deck: 108 cards, or 112 with the soy sauce promo."""
    counts = deck_counts(soy_sauce)
    return [c for c in Card for _ in range(counts[c])]


# ------------------------------------------------------------------------------ card types

#: Sushi Go!'s card types by name; ``score_round`` of the first six gives the round's categories
#: (sushi_go/score.py). Pudding scores at game end with split ties (score.game_pudding_points), and
#: chopsticks and wasabi placement act inside rules.py (both chopsticks cards chosen before the reveal;
#: the Party hooks of these types are not used here). Sushi Go!'s colours are :data:`COLOUR`'s.
MAKI_TYPE = Maki({c: MAKI_ICONS[c] for c in Card if MAKI_ICONS[c]}, ties="split")
TEMPURA_TYPE = Tempura((Card.TEMPURA,))
SASHIMI_TYPE = Sashimi((Card.SASHIMI,))
DUMPLING_TYPE = Dumpling((Card.DUMPLING,))
NIGIRI_TYPE = Nigiri({c: NIGIRI_VALUE[c] for c in Card if NIGIRI_VALUE[c]})
SOY_SAUCE_TYPE = SoySaucePromo((Card.SOY_SAUCE,))
TYPES: dict[str, CardType] = {
    t.name: t
    for t in (
        MAKI_TYPE,
        TEMPURA_TYPE,
        SASHIMI_TYPE,
        DUMPLING_TYPE,
        NIGIRI_TYPE,
        SOY_SAUCE_TYPE,
        Wasabi((Card.WASABI,)),
        Chopsticks({Card.CHOPSTICKS: 0}),
        Pudding((Card.PUDDING,)),
    )
}
#: The card type of every card.
TYPE_OF: dict[Card, CardType] = {c: next(t for t in TYPES.values() if c in t.variants) for c in Card}
