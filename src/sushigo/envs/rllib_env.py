"""The PettingZoo Parallel environment as RLlib wants it: a flat Box observation beside a float mask.

RLlib 2.x (new API stack) fails on the PettingZoo environments' ``Dict(observation, action_mask)``
observations with "No default encoder config for obs space=Dict(...)": its default encoders take a flat
Box. Its action-masking module (``ray.rllib.examples.rl_modules.classes.action_masking_rlm
.ActionMaskingTorchRLModule``) takes a Dict with the keys ``"observations"`` (the Box the encoder sees)
and ``"action_mask"`` (float, multiplied into the logits through ``log``). :class:`FlatMaskEnv` gives
exactly that, over :class:`.pettingzoo_env.SushiParallelEnv` for any game:

* ``observation_spaces[agent]`` is ``Dict(observations=Box(float32, obs_size), action_mask=Box(0, 1,
  actions, float32))``, ``action_spaces[agent]`` the env's ``Discrete``;
* every live agent gets an observation on every step and acts on the next one (in Sushi Roll and Party
  a waiting agent's mask holds the no-op alone, so no mask is ever all zero and its action is ignored);
* ``terminateds["__all__"]`` / ``truncateds["__all__"]`` mark the end of the game, as RLlib's
  ``MultiAgentEnv`` protocol asks;
* ``agents`` lists the agents the last ``reset``/``step`` reported on, the final step's included (RLlib's
  env check, run before sampling, fails with "has agent_ids that are not the names of the agents in the
  env" when a key of ``step``'s dicts is missing from it; PettingZoo's own ``agents`` is empty once the
  game is over), and ``game_over`` tells whether the game ended.

:func:`rllib_env` makes it an actual ``ray.rllib.env.MultiAgentEnv`` (RLlib checks the class); the
plain :class:`FlatMaskEnv` needs no Ray and is what the tests exercise. ``examples/rllib_ppo.py`` trains
PPO with action masking on it (docs/environments.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from .pettingzoo_env import parallel_env


class FlatMaskEnv:
    """RLlib's multi-agent protocol over the Parallel environment; ``config`` holds ``game``,
    ``players`` and any keyword of :func:`.pettingzoo_env.parallel_env` (options, ``reward``, ...).

    :raises ValueError: for a bad game, player count or option.
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        settings = dict(config or {})
        game = settings.pop("game", "sushi-go")
        players = int(settings.pop("players", 2))
        self.env = parallel_env(game, players, **settings)
        self.possible_agents: list[str] = list(self.env.possible_agents)
        self.agents: list[str] = []
        #: whether the last step ended the game (``agents`` still lists the agents it reported on)
        self.game_over = False
        first = self.possible_agents[0]
        agent_space: Any = self.env.observation_space(first)
        inner = agent_space["observation"]
        act_space: Any = self.env.action_space(first)
        n = int(act_space.n)
        obs_space = spaces.Dict(
            {
                "observations": spaces.Box(inner.low, inner.high, shape=inner.shape, dtype=np.float32),
                "action_mask": spaces.Box(0.0, 1.0, shape=(n,), dtype=np.float32),
            }
        )
        self.observation_spaces: dict[str, spaces.Space] = {a: obs_space for a in self.possible_agents}
        self.action_spaces: dict[str, spaces.Space] = {
            a: self.env.action_space(a) for a in self.possible_agents
        }
        #: the action sent for a live agent RLlib gave none for (the no-op where the game has one)
        self._filler = self.env.noop if self.env.noop is not None else 0

    @staticmethod
    def _convert(obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {
            "observations": np.asarray(obs["observation"], dtype=np.float32),
            "action_mask": np.asarray(obs["action_mask"], dtype=np.float32),
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Starts a game; every agent gets its first observation."""
        obs, infos = self.env.reset(seed=seed, options=options)
        self.agents = list(obs)
        self.game_over = False
        return {a: self._convert(o) for a, o in obs.items()}, infos

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Plays one step (every live agent's action; the waiting agents' are ignored)."""
        actions = {a: int(action_dict.get(a, self._filler)) for a in self.env.agents}
        obs, rewards, terms, truncs, infos = self.env.step(actions)
        over = not self.env.agents
        # RLlib checks every key of these dicts against ``agents``: the agents that get this step's
        # results (the final ones too) stay listed until the next reset
        self.agents = list(obs)
        self.game_over = over
        terminateds: dict[str, bool] = {a: bool(t) for a, t in terms.items()}
        truncateds: dict[str, bool] = {a: bool(t) for a, t in truncs.items()}
        terminateds["__all__"] = over and any(terms.values())
        truncateds["__all__"] = over and not terminateds["__all__"]
        return (
            {a: self._convert(o) for a, o in obs.items()},
            {a: float(r) for a, r in rewards.items()},
            terminateds,
            truncateds,
            infos,
        )

    def close(self) -> None:
        """Closes the Parallel environment."""
        self.env.close()


def rllib_env(config: dict[str, Any] | None = None) -> Any:
    """Returns a :class:`FlatMaskEnv` that is also a ``ray.rllib.env.MultiAgentEnv`` (what
    ``register_env`` wants: ``register_env("sushigo", rllib_env)``).

    :raises ImportError: naming ``ray[rllib]`` when RLlib does not import (Ray alone is not enough:
        RLlib needs Ray Tune's dependencies too).
    """
    try:
        from ray.rllib.env.multi_agent_env import MultiAgentEnv
    except ImportError as exc:
        raise ImportError(
            f"sushigo.envs.rllib_env needs RLlib, which does not import here ({exc}): pip install 'ray[rllib]'"
        ) from None

    class RLlibSushiEnv(FlatMaskEnv, MultiAgentEnv):  # type: ignore[misc]
        """:class:`FlatMaskEnv` as RLlib's ``MultiAgentEnv``."""

        def __init__(self, config: dict[str, Any] | None = None) -> None:
            FlatMaskEnv.__init__(self, config)
            MultiAgentEnv.__init__(self)

    return RLlibSushiEnv(config)
