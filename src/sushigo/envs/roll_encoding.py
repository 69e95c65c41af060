"""The Sushi Roll observation vector, built from one seat's observation only.

Everything on a Sushi Roll table is public, so the vector is the table seen from the seat: block ``k``
describes seat ``(seat + k) % players``. A die face is written as its icon count in the slot of its
symbol (:data:`SYMBOLS`), so ``pudding_2`` puts 2 in the pudding slot.

Layout for ``P`` players with ``d`` dice per belt (2p 8, 3p 7, 4p 6, 5p 5), ``float32``:

==============  ==============  ===========================================================
block           length          contents
==============  ==============  ===========================================================
belts           11 × d × P      per relative seat, per belt position: the face (zeros past the end)
seats           17 × P          per relative seat: this round's tray icons per symbol (11), free
                                wasabi, menu, chopsticks and pudding tokens, score, red belt flag
table           13              supply of menu, chopsticks and pudding tokens; round one-hot (3);
                                cycle; 1 if the seat is to act; dice left in the bag per type (5)
==============  ==============  ===========================================================

``normalized=True`` divides every slot by :func:`observation_scale`: icons by 3 (belts) or 10
(trays), tokens by their supply, scores by 100, the cycle by the dice per belt and bag counts by 10,
which keeps every slot in ``[-1, 10]``. The global state (:func:`encode_state`, for centralised
critics) is the table seen from seat 0 followed by a one-hot of the seat to act: nothing on a Sushi
Roll table is hidden, only the future rolls and bag order, which no vector holds.

Actions are the core's integer ids (:func:`sushigo.sushi_roll.actions.encode_action`), of which there
are :func:`~sushigo.sushi_roll.actions.action_space_size` ``(players)``.
"""

from __future__ import annotations

import numpy as np

from ..sushi_roll.dice import dice_per_player
from ..sushi_roll.faces import DIE_TYPES, SYMBOLS, parse_face
from ..sushi_roll.rules import SUPPLY

N_SYMBOLS = len(SYMBOLS)
SEAT_BLOCK = N_SYMBOLS + 6
TABLE_BLOCK = 3 + 3 + 1 + 1 + len(DIE_TYPES)
_INDEX = {s: i for i, s in enumerate(SYMBOLS)}
NORM_LOW = -1.0
NORM_HIGH = 10.0


def obs_size(players: int) -> int:
    """Returns the length of the Sushi Roll observation vector for ``players`` seats."""
    return N_SYMBOLS * dice_per_player(players) * players + SEAT_BLOCK * players + TABLE_BLOCK


def _face(name: str) -> tuple[int, int]:
    face = parse_face(name)
    return _INDEX[face.symbol], face.icons


def observation_scale(players: int) -> np.ndarray:
    """Returns the divisor of every slot of the normalised vector (see the module docstring)."""
    d = dice_per_player(players)
    scale = np.ones(obs_size(players), dtype=np.float32)
    scale[: N_SYMBOLS * d * players] = 3.0
    base = N_SYMBOLS * d * players
    for k in range(players):
        b = base + SEAT_BLOCK * k
        scale[b : b + N_SYMBOLS] = 10.0
        scale[b + N_SYMBOLS] = d
        scale[b + N_SYMBOLS + 1] = SUPPLY["menu"]
        scale[b + N_SYMBOLS + 2] = SUPPLY["chopsticks"]
        scale[b + N_SYMBOLS + 3] = SUPPLY["pudding"]
        scale[b + N_SYMBOLS + 4] = 100.0
    b = base + SEAT_BLOCK * players
    scale[b] = SUPPLY["menu"]
    scale[b + 1] = SUPPLY["chopsticks"]
    scale[b + 2] = SUPPLY["pudding"]
    scale[b + 6] = d
    scale[b + 8 : b + 8 + len(DIE_TYPES)] = 10.0
    return scale


def state_size(players: int) -> int:
    """Returns the length of the global state vector (:func:`encode_state`)."""
    return obs_size(players) + players


def encode_state(obs: object) -> np.ndarray:
    """Returns the global state from any observation of the game (a spectator's will do): the table seen
    from seat 0, then a one-hot of the seat to act (zeros once the game is over)."""
    n: int = obs.players  # type: ignore[attr-defined]
    vec = np.zeros(state_size(n), dtype=np.float32)
    vec[: obs_size(n)] = _encode(obs, 0)
    for to_act in obs.to_act:  # type: ignore[attr-defined]
        vec[obs_size(n) + to_act] = 1.0
    return vec


def encode_observation(obs: object, *, normalized: bool = False) -> np.ndarray:
    """Returns the vector of a seat's :class:`sushigo.sushi_roll.observation.Observation`.

    :raises ValueError: for a spectator's observation.
    """
    seat = getattr(obs, "seat", None)
    if seat is None:
        raise ValueError("a spectator's observation has no seat to encode")
    vec = _encode(obs, seat)
    if normalized:
        vec /= observation_scale(obs.players)  # type: ignore[attr-defined]
    return vec


def _encode(obs: object, seat: int) -> np.ndarray:
    o = obs  # duck-typed: the Sushi Roll Observation dataclass
    n: int = o.players  # type: ignore[attr-defined]
    d = dice_per_player(n)
    vec = np.zeros(obs_size(n), dtype=np.float32)
    for k in range(n):
        s = (seat + k) % n
        for pos, name in enumerate(o.belts[s][:d]):  # type: ignore[attr-defined]
            sym, icons = _face(name)
            vec[(k * d + pos) * N_SYMBOLS + sym] = icons
    base = N_SYMBOLS * d * n
    for k in range(n):
        s = (seat + k) % n
        b = base + SEAT_BLOCK * k
        for name in o.trays[s]:  # type: ignore[attr-defined]
            sym, icons = _face(name)
            vec[b + sym] += icons
        vec[b + N_SYMBOLS] = o.free_wasabi[s]  # type: ignore[attr-defined]
        vec[b + N_SYMBOLS + 1] = o.menu[s]  # type: ignore[attr-defined]
        vec[b + N_SYMBOLS + 2] = o.chopsticks[s]  # type: ignore[attr-defined]
        vec[b + N_SYMBOLS + 3] = o.pudding[s]  # type: ignore[attr-defined]
        vec[b + N_SYMBOLS + 4] = o.scores[s]  # type: ignore[attr-defined]
        vec[b + N_SYMBOLS + 5] = 1.0 if o.red_belt == s else 0.0  # type: ignore[attr-defined]
    b = base + SEAT_BLOCK * n
    vec[b] = o.supply_menu  # type: ignore[attr-defined]
    vec[b + 1] = o.supply_chopsticks  # type: ignore[attr-defined]
    vec[b + 2] = o.supply_pudding  # type: ignore[attr-defined]
    vec[b + 3 + min(o.round, 2)] = 1.0  # type: ignore[attr-defined]
    vec[b + 6] = o.cycle  # type: ignore[attr-defined]
    vec[b + 7] = 1.0 if (seat in o.to_act) else 0.0  # type: ignore[attr-defined]
    bag = dict(o.bag)  # type: ignore[attr-defined]
    for i, kind in enumerate(DIE_TYPES):
        vec[b + 8 + i] = bag.get(kind, 0)
    return vec
