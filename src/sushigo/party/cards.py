"""Sushi Go Party! cards: the 45 variants, their counts, numbers, colours, and the 23 card types.

rules.md §3.1. Cards are small ints (:class:`PCard`) whose lowercase names are the formats.md names.
Each card type is one object of :mod:`sushigo.cards` (:data:`TYPES`, by tile name) that holds the
card's rule; :data:`TYPE_OF` maps every variant to its type. Counts are data (:data:`COUNTS`): the
uramaki split (4/4/4, rules.md §3.1 note, P17) can be corrected here alone.
"""

from __future__ import annotations

from enum import IntEnum

from ..cards.appetizers import Dumpling, Edamame, Eel, MisoSoup, Onigiri, Sashimi, Tempura, Tofu
from ..cards.base import CardType
from ..cards.desserts import Fruit, GreenTeaIceCream, Pudding
from ..cards.nigiri import Nigiri, Wasabi
from ..cards.rolls import Maki, Temaki, Uramaki
from ..cards.specials import (
    Chopsticks,
    FaceDown,
    Menu,
    SoySauce,
    SpecialOrder,
    Spoon,
    TakeoutBox,
    Tea,
)
from ..errors import InvalidActionError


class PCard(IntEnum):
    """One Sushi Go Party! card variant; ``card.wire`` is its formats.md name."""

    EGG_NIGIRI = 0
    SALMON_NIGIRI = 1
    SQUID_NIGIRI = 2
    MAKI_1 = 3
    MAKI_2 = 4
    MAKI_3 = 5
    TEMAKI = 6
    URAMAKI_3 = 7
    URAMAKI_4 = 8
    URAMAKI_5 = 9
    TEMPURA = 10
    SASHIMI = 11
    DUMPLING = 12
    EEL = 13
    TOFU = 14
    ONIGIRI_CIRCLE = 15
    ONIGIRI_TRIANGLE = 16
    ONIGIRI_SQUARE = 17
    ONIGIRI_RECTANGLE = 18
    EDAMAME = 19
    MISO_SOUP = 20
    CHOPSTICKS_1 = 21
    CHOPSTICKS_2 = 22
    CHOPSTICKS_3 = 23
    SPOON_4 = 24
    SPOON_5 = 25
    SPOON_6 = 26
    MENU_7 = 27
    MENU_8 = 28
    MENU_9 = 29
    TAKEOUT_BOX_10 = 30
    TAKEOUT_BOX_11 = 31
    TAKEOUT_BOX_12 = 32
    SPECIAL_ORDER = 33
    SOY_SAUCE = 34
    TEA = 35
    WASABI = 36
    PUDDING = 37
    GREEN_TEA_ICE_CREAM = 38
    FRUIT_WW = 39
    FRUIT_PP = 40
    FRUIT_OO = 41
    FRUIT_WP = 42
    FRUIT_WO = 43
    FRUIT_PO = 44

    @property
    def wire(self) -> str:
        """The formats.md name, e.g. ``"spoon_4"``."""
        return WIRE[self]

    @classmethod
    def parse(cls, text: object) -> PCard:
        """Parses a formats.md Party card name.

        :raises InvalidActionError: when ``text`` is not a Party card name.

        >>> PCard.parse("uramaki_5")
        <PCard.URAMAKI_5: 9>
        """
        card = _BY_NAME.get(text) if isinstance(text, str) else None
        if card is None:
            raise InvalidActionError(f"unknown card {text!r}")
        return card


P = PCard
WIRE: tuple[str, ...] = tuple(c.name.lower() for c in PCard)
_BY_NAME = {c.name.lower(): c for c in PCard}
#: The identity of a face-down card (not a physical card: a key in per-identity counts).
FACE_DOWN = len(PCard)
N_KEYS = len(PCard) + 1
KEY_NAMES: tuple[str, ...] = (*WIRE, "face_down")

#: Copies of each variant in the box (181 cards; rules.md §3.1).
COUNTS: dict[PCard, int] = {
    P.EGG_NIGIRI: 4, P.SALMON_NIGIRI: 5, P.SQUID_NIGIRI: 3,
    P.MAKI_1: 4, P.MAKI_2: 5, P.MAKI_3: 3,
    P.TEMAKI: 12,
    P.URAMAKI_3: 4, P.URAMAKI_4: 4, P.URAMAKI_5: 4,
    P.TEMPURA: 8, P.SASHIMI: 8, P.DUMPLING: 8, P.EEL: 8, P.TOFU: 8,
    P.ONIGIRI_CIRCLE: 2, P.ONIGIRI_TRIANGLE: 2, P.ONIGIRI_SQUARE: 2, P.ONIGIRI_RECTANGLE: 2,
    P.EDAMAME: 8, P.MISO_SOUP: 8,
    P.CHOPSTICKS_1: 1, P.CHOPSTICKS_2: 1, P.CHOPSTICKS_3: 1,
    P.SPOON_4: 1, P.SPOON_5: 1, P.SPOON_6: 1,
    P.MENU_7: 1, P.MENU_8: 1, P.MENU_9: 1,
    P.TAKEOUT_BOX_10: 1, P.TAKEOUT_BOX_11: 1, P.TAKEOUT_BOX_12: 1,
    P.SPECIAL_ORDER: 3, P.SOY_SAUCE: 3, P.TEA: 3, P.WASABI: 3,
    P.PUDDING: 15, P.GREEN_TEA_ICE_CREAM: 15,
    P.FRUIT_WW: 2, P.FRUIT_PP: 2, P.FRUIT_OO: 2, P.FRUIT_WP: 3, P.FRUIT_WO: 3, P.FRUIT_PO: 3,
}  # fmt: skip

# ---------------------------------------------------------------------------- the 23 card types

NIGIRI = Nigiri({P.EGG_NIGIRI: 1, P.SALMON_NIGIRI: 2, P.SQUID_NIGIRI: 3})
MAKI = Maki({P.MAKI_1: 1, P.MAKI_2: 2, P.MAKI_3: 3}, ties="full", places_many=(6, 4, 2))
TEMAKI = Temaki((P.TEMAKI,))
URAMAKI = Uramaki({P.URAMAKI_3: 3, P.URAMAKI_4: 4, P.URAMAKI_5: 5})
TEMPURA = Tempura((P.TEMPURA,))
SASHIMI = Sashimi((P.SASHIMI,))
DUMPLING = Dumpling((P.DUMPLING,))
EEL = Eel((P.EEL,))
TOFU = Tofu((P.TOFU,))
ONIGIRI = Onigiri((P.ONIGIRI_CIRCLE, P.ONIGIRI_TRIANGLE, P.ONIGIRI_SQUARE, P.ONIGIRI_RECTANGLE))
EDAMAME = Edamame((P.EDAMAME,))
MISO_SOUP = MisoSoup((P.MISO_SOUP,))
CHOPSTICKS = Chopsticks({P.CHOPSTICKS_1: 1, P.CHOPSTICKS_2: 2, P.CHOPSTICKS_3: 3})
SPOON = Spoon({P.SPOON_4: 4, P.SPOON_5: 5, P.SPOON_6: 6})
MENU = Menu({P.MENU_7: 7, P.MENU_8: 8, P.MENU_9: 9})
TAKEOUT_BOX = TakeoutBox({P.TAKEOUT_BOX_10: 10, P.TAKEOUT_BOX_11: 11, P.TAKEOUT_BOX_12: 12})
SPECIAL_ORDER = SpecialOrder((P.SPECIAL_ORDER,))
SOY_SAUCE = SoySauce((P.SOY_SAUCE,))
TEA = Tea((P.TEA,))
WASABI = Wasabi((P.WASABI,))
PUDDING = Pudding((P.PUDDING,))
GREEN_TEA_ICE_CREAM = GreenTeaIceCream((P.GREEN_TEA_ICE_CREAM,))
FRUIT = Fruit({
    P.FRUIT_WW: (2, 0, 0), P.FRUIT_PP: (0, 2, 0), P.FRUIT_OO: (0, 0, 2),
    P.FRUIT_WP: (1, 1, 0), P.FRUIT_WO: (1, 0, 1), P.FRUIT_PO: (0, 1, 1),
})  # fmt: skip
FACE_DOWN_TYPE = FaceDown((FACE_DOWN,))

#: Every card type by tile name, in the groups of §3.1.
TYPES: dict[str, CardType] = {
    t.name: t
    for t in (
        NIGIRI, MAKI, TEMAKI, URAMAKI, TEMPURA, SASHIMI, DUMPLING, EEL, TOFU, ONIGIRI, EDAMAME,
        MISO_SOUP, CHOPSTICKS, SPOON, MENU, TAKEOUT_BOX, SPECIAL_ORDER, SOY_SAUCE, TEA, WASABI,
        PUDDING, GREEN_TEA_ICE_CREAM, FRUIT,
    )
}  # fmt: skip
ROLLS = ("maki", "temaki", "uramaki")
APPETIZERS = ("tempura", "sashimi", "dumpling", "eel", "tofu", "onigiri", "edamame", "miso_soup")
SPECIALS = ("chopsticks", "spoon", "menu", "takeout_box", "special_order", "soy_sauce", "tea", "wasabi")
DESSERTS = ("pudding", "green_tea_ice_cream", "fruit")

#: The card type of every variant key (the face-down key included).
TYPE_OF: tuple[CardType, ...] = (
    *(next(t for t in TYPES.values() if k in t.variants) for k in range(len(PCard))),
    FACE_DOWN_TYPE,
)
#: Variant keys of every type, by tile name.
VARIANTS: dict[str, tuple[PCard, ...]] = {
    name: tuple(PCard(k) for k in t.variants) for name, t in TYPES.items()
}
#: Resolution number of the numbered cards (chopsticks 1–3, spoon 4–6, menu 7–9, takeout box 10–12).
NUMBER: dict[int, int] = {k: n for t in (CHOPSTICKS, SPOON, MENU, TAKEOUT_BOX) for k, n in t.numbers.items()}
IS_DESSERT: tuple[bool, ...] = tuple(TYPE_OF[k].name in DESSERTS for k in range(N_KEYS))
NIGIRI_VALUE: tuple[int, ...] = tuple(NIGIRI.values.get(k, 0) for k in range(N_KEYS))


def type_of(key: int) -> CardType:
    """The card type of a variant key."""
    return TYPE_OF[key]


def colour_of(key: int) -> str:
    """A variant's background colour name (names only; nigiri and wasabi share yellow), from its type's
    ``colour_of`` hook."""
    return TYPE_OF[key].colour_of(key) or ""
