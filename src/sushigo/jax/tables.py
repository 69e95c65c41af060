"""Constant tables of the JAX engine, derived from the core's card and scoring data.

They are NumPy arrays (baked into the compiled functions as constants). The card facts and scoring
numbers come from :mod:`sushigo.batch.tables` (derived from the core's cards and scoring, so neither
engine can drift from the rules' data), as 32-bit arrays; the observation layout's sizes are here.
"""

from __future__ import annotations

import numpy as np

from ..batch import tables as _shared
from ..batch.tables import (  # noqa: F401 - the engine's modules read them from here
    CHOPSTICKS,
    COLOUR_GROUP,
    DUMMY_BASE,
    DUMPLING,
    DUMPLING_CAP,
    MAKI_FIRST,
    MAKI_SECOND,
    N_COLOURS,
    N_KINDS,
    NO_DUMMY,
    PUDDING,
    PUDDING_POINTS,
    SASHIMI,
    SASHIMI_POINTS,
    SASHIMI_SET,
    SOY_POINTS,
    SOY_SAUCE,
    TEMPURA,
    TEMPURA_POINTS,
    TEMPURA_SET,
    WASABI,
    WASABI_FACTOR,
)
from ..sushi_go.actions import ACTION_SPACE_SIZE, OWN_CHOICES
from ..sushi_go.cards import deck_counts
from ..sushi_go.options import Config
from ..sushi_go.score import CATEGORIES

ROUNDS = 3
#: the observation's turn one-hot has this many slots (the largest hand, 10 cards, plus the end)
TURNS = 11
KNOWN_BLOCK = 1 + N_KINDS
TABLEAU_BLOCK = N_KINDS + 4
N_CATEGORIES = len(CATEGORIES)
SCORE_SCALE = 100.0

# The card facts and scoring numbers are the batch engine's (NumPy only; importing its tables does not
# import its engine), as the JAX engine's 32-bit arrays.
MAKI = _shared.MAKI.astype(np.int32)
NIGIRI = _shared.NIGIRI.astype(np.int32)
DUMPLINGS = _shared.DUMPLINGS.astype(np.int32)
#: ``(13, colours)`` one-hot of each kind's colour group (the soy sauce promo counts colours)
COLOUR_ONEHOT = np.eye(N_COLOURS, dtype=np.int32)[COLOUR_GROUP]
#: first and second card of each ``own`` choice (second is -1 for a single card)
OWN_FIRST = _shared.OWN_FIRST.astype(np.int32)
OWN_SECOND = _shared.OWN_SECOND.astype(np.int32)
#: cards each own choice takes from the hand, by kind: ``(OWN_CHOICES, 13)``
OWN_USES = _shared.OWN_USES.astype(np.int32)

__all__ = ["ACTION_SPACE_SIZE", "OWN_CHOICES", "deck", "n_hands", "obs_size", "observation_scale"]


def deck(config: Config) -> np.ndarray:
    """The unshuffled deck as card ids (108 cards, or 112 with soy sauce)."""
    return np.repeat(np.arange(N_KINDS, dtype=np.int32), deck_counts(config.soy_sauce))


def deck_vector(config: Config) -> np.ndarray:
    """Copies of each card kind in the deck."""
    return np.asarray(deck_counts(config.soy_sauce), dtype=np.float32)


def n_hands(config: Config) -> int:
    """Hands dealt each round: one per seat, plus the dummy pile in the dummy variant."""
    return 3 if config.dummy else config.players


def obs_size(config: Config) -> int:
    """Length of the observation vector (the layout of :mod:`sushigo.envs.encoding`)."""
    return (
        N_KINDS
        + KNOWN_BLOCK * (config.players - 1)
        + TABLEAU_BLOCK * config.tableaux
        + ROUNDS
        + TURNS
        + 2
        + 2 * N_KINDS
    )


def observation_scale(config: Config) -> np.ndarray:
    """The divisor of every slot of the normalised vector, as :func:`sushigo.envs.encoding.observation_scale`
    (a test checks they are equal)."""
    kinds = np.maximum(deck_vector(config), 1.0)
    p, t = config.players, config.tableaux
    parts = [kinds]
    for _ in range(p - 1):
        parts += [np.ones(1, np.float32), kinds]
    for _ in range(t):
        extra = np.array([kinds[WASABI], kinds[PUDDING], SCORE_SCALE, config.hand_size], dtype=np.float32)
        parts += [kinds, extra]
    parts += [np.ones(ROUNDS + TURNS + 2, np.float32), kinds, kinds]
    return np.concatenate(parts).astype(np.float32)
