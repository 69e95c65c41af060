"""The JAX engine's state: one game of Sushi Go! as an immutable pytree of fixed-shape arrays.

The :class:`~sushigo.sushi_go.options.Config` is static (not a leaf): the player count and the variant
fix every shape, so each config compiles once and ``vmap`` stacks games of one config.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flax import struct

import jax

from ..sushi_go.options import Config

Array = jax.Array


@struct.dataclass
class State:
    """One game (add a leading axis with ``vmap`` for a batch).

    ``P`` players, ``T`` tableaux (the dummy's last), ``H`` hands dealt a round (``P``, or 3 with the
    dummy pile), ``n`` cards a hand. Counts are ``int32`` card counts in card-id order.

    - ``deals`` ``(3, H, n)``: the whole deal, drawn by :func:`~sushigo.jax.engine.init` (hidden
      information: only :func:`~sushigo.jax.observe.observe` may be shown to a seat);
    - ``hands`` ``(P, 13)``: the hand each seat holds (the dummy controller's includes the card it drew);
    - ``tableaux`` ``(T, 13)`` cards played this round, ``free_wasabi`` and ``nigiri_points`` ``(T,)``
      (placing nigiri as they arrive makes wasabi exact without ordered tableaux), ``puddings`` and
      ``banked`` (points of finished rounds) ``(T,)``;
    - ``earlier`` ``(13,)``: cards played in the finished rounds before the one ``tableaux`` shows;
    - ``round_points`` ``(3, T, 7)``: the score sheets (formats.md categories, total last);
    - ``picks`` ``(3, n, T, 2)``: every card placed (``-1`` pads), enough to export a core record;
    - ``drawn``: the card the dummy controller drew this turn; ``round``, ``turn``: where the game is;
    - ``terminated``; ``rewards`` ``(P,)``: +1 sole winner, 0 shared win, -1 otherwise, on the final step
      only (zero elsewhere).
    """

    config: Config = struct.field(pytree_node=False)
    deals: Array
    hands: Array
    tableaux: Array
    free_wasabi: Array
    nigiri_points: Array
    puddings: Array
    banked: Array
    earlier: Array
    round_points: Array
    picks: Array
    drawn: Array
    round: Array
    turn: Array
    terminated: Array
    rewards: Array

    if TYPE_CHECKING:

        def replace(self, **changes: Any) -> State:
            """A copy with ``changes`` (flax's ``struct.dataclass`` adds it; declared here for mypy)."""
            ...
