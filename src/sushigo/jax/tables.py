"""Constant tables of the JAX engine, derived from the core's card and scoring data.

They are NumPy arrays (baked into the compiled functions as constants) built from
:mod:`sushigo.sushi_go.cards`, :mod:`~sushigo.sushi_go.actions` and :mod:`~sushigo.sushi_go.score`, so
the engine cannot drift from the rules' data. They repeat what :mod:`sushigo.batch.tables` derives
because importing :mod:`sushigo.batch` needs the ``rl`` extra (Gymnasium) and this package needs only
``jax``.
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
from ..sushi_go.options import Config
from ..sushi_go.score import CATEGORIES, DUMPLING_POINTS, game_pudding_points, soy_sauce_points

N_KINDS = len(Card)
ROUNDS = 3
#: the observation's turn one-hot has this many slots (the largest hand, 10 cards, plus the end)
TURNS = 11
NO_DUMMY = N_KINDS
DUMMY_BASE = N_KINDS + 1
KNOWN_BLOCK = 1 + N_KINDS
TABLEAU_BLOCK = N_KINDS + 4
N_CATEGORIES = len(CATEGORIES)
SCORE_SCALE = 100.0

TEMPURA = int(Card.TEMPURA)
SASHIMI = int(Card.SASHIMI)
DUMPLING = int(Card.DUMPLING)
WASABI = int(Card.WASABI)
CHOPSTICKS = int(Card.CHOPSTICKS)
PUDDING = int(Card.PUDDING)
SOY_SAUCE = int(Card.SOY_SAUCE)

MAKI = np.array(MAKI_ICONS, dtype=np.int32)
NIGIRI = np.array(NIGIRI_VALUE, dtype=np.int32)
DUMPLINGS = np.array(DUMPLING_POINTS, dtype=np.int32)
TEMPURA_SET, TEMPURA_POINTS = TEMPURA_TYPE.SET_SIZE, TEMPURA_TYPE.SET_POINTS
SASHIMI_SET, SASHIMI_POINTS = SASHIMI_TYPE.SET_SIZE, SASHIMI_TYPE.SET_POINTS
DUMPLING_CAP = len(DUMPLING_POINTS) - 1
WASABI_FACTOR = NIGIRI_TYPE.WASABI_FACTOR
MAKI_FIRST, MAKI_SECOND = MAKI_TYPE.PLACES
SOY_POINTS = soy_sauce_points([[Card.SOY_SAUCE]])[0]
PUDDING_POINTS = game_pudding_points([1, 0], two_player_rule=True)[0]

_colour_names = sorted(set(COLOUR.values()))
#: ``(13, colours)`` one-hot of each kind's colour group (the soy sauce promo counts colours)
COLOUR_ONEHOT = np.zeros((N_KINDS, len(_colour_names)), dtype=np.int32)
for _c in Card:
    COLOUR_ONEHOT[int(_c), _colour_names.index(COLOUR[_c])] = 1

#: first and second card of each ``own`` choice (second is -1 for a single card)
OWN_FIRST = np.array(
    list(range(N_KINDS)) + [a for a in range(N_KINDS) for _ in range(N_KINDS)], dtype=np.int32
)
OWN_SECOND = np.array([-1] * N_KINDS + [b for _ in range(N_KINDS) for b in range(N_KINDS)], dtype=np.int32)
#: cards each own choice takes from the hand, by kind: ``(OWN_CHOICES, 13)``
OWN_USES = np.zeros((OWN_CHOICES, N_KINDS), dtype=np.int32)
for _o in range(OWN_CHOICES):
    OWN_USES[_o, OWN_FIRST[_o]] += 1
    if OWN_SECOND[_o] >= 0:
        OWN_USES[_o, OWN_SECOND[_o]] += 1
del _o, _c

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
