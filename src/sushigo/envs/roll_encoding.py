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

Actions are the core's integer ids (:func:`sushigo.sushi_roll.actions.encode_action`), of which there
are :func:`~sushigo.sushi_roll.actions.action_space_size` ``(players)``.
"""

from __future__ import annotations

import numpy as np

from ..sushi_roll.dice import dice_per_player
from ..sushi_roll.faces import DIE_TYPES, parse_face

SYMBOLS: tuple[str, ...] = (
    "dumpling",
    "tempura",
    "sashimi",
    "maki",
    "egg_nigiri",
    "salmon_nigiri",
    "squid_nigiri",
    "wasabi",
    "chopsticks",
    "menu",
    "pudding",
)
N_SYMBOLS = len(SYMBOLS)
SEAT_BLOCK = N_SYMBOLS + 6
TABLE_BLOCK = 3 + 3 + 1 + 1 + len(DIE_TYPES)
_INDEX = {s: i for i, s in enumerate(SYMBOLS)}


def obs_size(players: int) -> int:
    """Returns the length of the Sushi Roll observation vector for ``players`` seats."""
    return N_SYMBOLS * dice_per_player(players) * players + SEAT_BLOCK * players + TABLE_BLOCK


def _face(name: str) -> tuple[int, int]:
    face = parse_face(name)
    return _INDEX[face.symbol], face.icons


def encode_observation(obs: object) -> np.ndarray:
    """Returns the vector of a seat's :class:`sushigo.sushi_roll.observation.Observation`.

    :raises ValueError: for a spectator's observation.
    """
    seat = getattr(obs, "seat", None)
    if seat is None:
        raise ValueError("a spectator's observation has no seat to encode")
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
    vec[b + 7] = 1.0 if (o.to_act == seat and not o.is_over) else 0.0  # type: ignore[attr-defined]
    bag = dict(o.bag)  # type: ignore[attr-defined]
    for i, kind in enumerate(DIE_TYPES):
        vec[b + 8 + i] = bag.get(kind, 0)
    return vec
