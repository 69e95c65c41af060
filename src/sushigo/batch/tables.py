"""Constant tables of the batch engine: card facts and the dense action code as arrays.

Everything here is derived from the core (:mod:`sushigo.sushi_go.cards`, :mod:`~.sushi_go.actions`), so
the batch engine cannot drift from the rules' data.
"""

from __future__ import annotations

import numpy as np

from ..sushi_go.actions import ACTION_SPACE_SIZE, OWN_CHOICES
from ..sushi_go.cards import (
    COLOUR,
    MAKI_ICONS,
    MAKI_TYPE,
    NIGIRI_TYPE,
    NIGIRI_VALUE,
    SASHIMI_TYPE,
    TEMPURA_TYPE,
    Card,
    deck_counts,
)
from ..sushi_go.score import CATEGORIES, DUMPLING_POINTS, game_pudding_points, soy_sauce_points

N_KINDS = len(Card)
NO_DUMMY = N_KINDS  #: the "dummy" part of a code that gives the dummy no card
DUMMY_BASE = N_KINDS + 1  #: a code is ``own * DUMMY_BASE + dummy``
TEMPURA = int(Card.TEMPURA)
SASHIMI = int(Card.SASHIMI)
DUMPLING = int(Card.DUMPLING)
WASABI = int(Card.WASABI)
CHOPSTICKS = int(Card.CHOPSTICKS)
PUDDING = int(Card.PUDDING)
SOY_SAUCE = int(Card.SOY_SAUCE)

#: Score categories in formats.md order; the last one is the round total.
SCORE_CATEGORIES = CATEGORIES
N_CATEGORIES = len(CATEGORIES)

MAKI = np.array(MAKI_ICONS, dtype=np.int64)
NIGIRI = np.array(NIGIRI_VALUE, dtype=np.int64)
DUMPLINGS = np.array(DUMPLING_POINTS, dtype=np.int64)
#: the scoring numbers, read from the card types and the core's scoring functions
TEMPURA_SET, TEMPURA_POINTS = TEMPURA_TYPE.SET_SIZE, TEMPURA_TYPE.SET_POINTS
SASHIMI_SET, SASHIMI_POINTS = SASHIMI_TYPE.SET_SIZE, SASHIMI_TYPE.SET_POINTS
DUMPLING_CAP = len(DUMPLING_POINTS) - 1  #: more dumplings than this score as many
WASABI_FACTOR = NIGIRI_TYPE.WASABI_FACTOR
MAKI_FIRST, MAKI_SECOND = MAKI_TYPE.PLACES
SOY_POINTS = soy_sauce_points([[Card.SOY_SAUCE]])[0]  #: a lone soy sauce player's points
PUDDING_POINTS = game_pudding_points([1, 0], two_player_rule=True)[0]  #: the most puddings' points
#: the same numbers as one array for the compiled kernel, in this order (Numba's cache would keep the
#: values of module constants across a change here, arguments it does not keep)
RULES = np.array(
    [
        TEMPURA_SET,
        TEMPURA_POINTS,
        SASHIMI_SET,
        SASHIMI_POINTS,
        DUMPLING_CAP,
        WASABI_FACTOR,
        MAKI_FIRST,
        MAKI_SECOND,
        SOY_POINTS,
        PUDDING_POINTS,
    ],
    dtype=np.int64,
)
_colour_names = sorted(set(COLOUR.values()))
#: colour group of each card kind (soy sauce promo)
COLOUR_GROUP = np.array([_colour_names.index(COLOUR[c]) for c in Card], dtype=np.int64)
N_COLOURS = len(_colour_names)

#: first and second card of each "own" choice (second is -1 for a single card)
OWN_FIRST = np.array(
    [c for c in range(N_KINDS)] + [a for a in range(N_KINDS) for _ in range(N_KINDS)], dtype=np.int64
)
OWN_SECOND = np.array([-1] * N_KINDS + [b for _ in range(N_KINDS) for b in range(N_KINDS)], dtype=np.int64)
#: cards each own choice takes from the hand, by kind: shape (OWN_CHOICES, N_KINDS)
OWN_USES = np.zeros((OWN_CHOICES, N_KINDS), dtype=np.int64)
for _o in range(OWN_CHOICES):
    OWN_USES[_o, OWN_FIRST[_o]] += 1
    if OWN_SECOND[_o] >= 0:
        OWN_USES[_o, OWN_SECOND[_o]] += 1
del _o

__all__ = [
    "ACTION_SPACE_SIZE",
    "OWN_CHOICES",
    "deck_array",
]


def deck_array(soy_sauce: bool) -> np.ndarray:
    """Returns the unshuffled deck as card ids (108 cards, or 112 with soy sauce)."""
    counts = deck_counts(soy_sauce)
    return np.repeat(np.arange(N_KINDS, dtype=np.int8), counts)
