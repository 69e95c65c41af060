"""A pgx-style handle on one configuration: ``env = sushigo.jax.make(4)``, then ``env.init(key)``,
``env.step(state, actions)``, ``env.observe(state, seat)``, with the sizes a trainer needs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jax

from ..sushi_go.options import Config
from .engine import init, make_config, random_actions, step
from .observe import legal_action_mask, observe, observe_all
from .state import State
from .tables import ACTION_SPACE_SIZE, obs_size

Array = jax.Array


@dataclass(frozen=True)
class SushiGoEnv:
    """The engine's functions bound to one :class:`Config` (hashable, so it can be a static argument).

    Nothing is compiled here: wrap the methods in ``jax.jit``/``jax.vmap`` as the loop needs.
    """

    config: Config

    @property
    def num_players(self) -> int:
        return self.config.players

    @property
    def num_actions(self) -> int:
        """Dense codes (2548); the compact space is :attr:`num_compact_actions`."""
        return ACTION_SPACE_SIZE

    @property
    def num_compact_actions(self) -> int:
        """182 compact codes, or the 2548 dense ones in the dummy variant."""
        return ACTION_SPACE_SIZE if self.config.dummy else ACTION_SPACE_SIZE // 14

    @property
    def observation_shape(self) -> tuple[int]:
        return (obs_size(self.config),)

    def init(self, key: Array) -> State:
        return init(key, self.config)

    def step(self, state: State, actions: Array, key: Array | None = None) -> State:
        return step(state, actions, key)

    def observe(self, state: State, seat: int | Array, *, normalized: bool = False) -> Array:
        return observe(state, seat, normalized=normalized)

    def observe_all(self, state: State, *, normalized: bool = False) -> Array:
        return observe_all(state, normalized=normalized)

    def legal_action_mask(self, state: State, *, compact: bool = False) -> Array:
        return legal_action_mask(state, compact=compact)

    def random_actions(self, state: State, key: Array) -> Array:
        return random_actions(state, key)


def make(players: int | Config = 4, **options: Any) -> SushiGoEnv:
    """The env of ``players`` seats with the core's options (``make(2, dummy=True)``).

    :raises sushigo.errors.InvalidActionError: for a bad player count or option, as the core does.
    """
    return SushiGoEnv(make_config(players, **options))
