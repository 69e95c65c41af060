"""Sushi Go! as pure JAX functions (extra ``sushigo[jax]``): ``init``, ``step``, ``observe``,
``legal_action_mask``, with explicit PRNG keys, for ``jit`` and ``vmap`` over thousands of games.

>>> import jax
>>> from sushigo import jax as sgj
>>> config = sgj.make_config(4)
>>> state = sgj.init(jax.random.key(0), config)
>>> state = sgj.step(state, sgj.random_actions(state, jax.random.key(1)))
>>> int(state.turn), sgj.observe(state, 0).shape
(1, (165,))
>>> env = sgj.make(2, dummy=True)
>>> env.num_players, env.num_compact_actions, env.observation_shape
(2, 2548, (120,))

Games replay exactly through the core (``tests/jax/test_engine_core.py``); see ``docs/jax.md``.
"""

from __future__ import annotations

from ..errors import require

require("jax", "jax", "sushigo.jax")
require("flax", "jax", "sushigo.jax")

from .engine import (  # noqa: E402
    compact_to_dense,
    init,
    legal_actions_taken,
    make_config,
    play_random,
    random_actions,
    sample_legal,
    step,
)
from .env import SushiGoEnv, make  # noqa: E402
from .observe import controller, legal_action_mask, observe, observe_all  # noqa: E402
from .score import margins, pudding_points, totals, win_rewards, winners  # noqa: E402
from .state import State  # noqa: E402
from .tables import ACTION_SPACE_SIZE, OWN_CHOICES, obs_size, observation_scale  # noqa: E402

__all__ = [
    "ACTION_SPACE_SIZE",
    "OWN_CHOICES",
    "State",
    "SushiGoEnv",
    "compact_to_dense",
    "controller",
    "init",
    "legal_action_mask",
    "legal_actions_taken",
    "make",
    "make_config",
    "margins",
    "obs_size",
    "observation_scale",
    "observe",
    "observe_all",
    "play_random",
    "pudding_points",
    "random_actions",
    "sample_legal",
    "step",
    "totals",
    "win_rewards",
    "winners",
]
