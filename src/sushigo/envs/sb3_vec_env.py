"""Stable-Baselines3's ``VecEnv`` over the batch engine, so that SB3 and MaskablePPO train on it as it is.

SB3 rejects a Gymnasium ``VectorEnv`` ("not a Gymnasium environment"): it wants its own ``VecEnv``
protocol (``step_async``/``step_wait``, auto-reset on the same step with ``infos[i]["terminal_observation"]``,
``env_method``/``get_attr``). :class:`SushiGoSB3VecEnv` speaks that protocol over
:class:`.vector_env.SushiGoVectorEnv` (every keyword is passed to it: ``players``, ``opponents``,
``seat``, ``reward``, ``actions``, ``normalized``, the game's options), and offers
``action_masks()``: the ``(num_envs, actions)`` legal mask that sb3-contrib's MaskablePPO asks for.

::

    from sb3_contrib import MaskablePPO
    from sushigo.envs.sb3_vec_env import SushiGoSB3VecEnv

    env = SushiGoSB3VecEnv(num_envs=64, players=4, actions="compact", normalized=True)
    MaskablePPO("MlpPolicy", env, seed=0).learn(100_000)

All games of the batch are dealt together and end on the same step; that step returns the next deals'
first observations (and masks), with each game's last observation in ``infos[i]["terminal_observation"]``
and its final totals in ``infos[i]["totals"]``. ``seed(s)`` (or ``reset`` after it) makes the run
reproducible: the games are dealt from ``s``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import require

require("stable_baselines3", "ppo", "sushigo.envs.sb3_vec_env")

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402
from stable_baselines3.common.vec_env.base_vec_env import (  # noqa: E402
    VecEnv,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from .vector_env import SushiGoVectorEnv  # noqa: E402


class SushiGoSB3VecEnv(VecEnv):
    """``num_envs`` Sushi Go! games on the batch engine as an SB3 ``VecEnv``.

    ``venv`` is the wrapped :class:`.vector_env.SushiGoVectorEnv` (give one, or the keywords to make it).

    :raises ValueError: for a bad setting of the vector environment (seat, reward, opponent, option).
    """

    def __init__(self, num_envs: int = 8, venv: SushiGoVectorEnv | None = None, **kwargs: Any) -> None:
        if venv is None:
            venv = SushiGoVectorEnv(num_envs=num_envs, **kwargs)
        elif kwargs:
            raise ValueError("give either a vector env or the keywords to make one, not both")
        self.venv = venv
        self.render_mode: str | None = None
        self._actions: np.ndarray | None = None
        self._mask: np.ndarray | None = None
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)

    # ------------------------------------------------------------------ the SB3 protocol

    def reset(self) -> VecEnvObs:
        """Deals new games, from the seed given to :meth:`seed` when there is one."""
        seed = self._seeds[0]
        obs, info = self.venv.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        self._mask = info["action_mask"]
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return np.asarray(obs, dtype=np.float32)

    def step_async(self, actions: np.ndarray) -> None:
        """Stores the actions (one per game) for :meth:`step_wait`."""
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        """Plays the stored actions; when the games end, deals the next ones at once (SB3's auto-reset).

        :raises ValueError: for an illegal action (nothing changes then).
        """
        if self._actions is None:
            raise RuntimeError("step_wait() needs step_async(actions) first")
        if self._mask is None:
            self.reset()
        actions, self._actions = self._actions, None
        obs, rewards, terminated, truncated, info = self.venv.step(actions)
        dones = np.asarray(terminated | truncated, dtype=bool)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            totals = info.get("totals")
            for i in np.flatnonzero(dones):
                infos[i]["terminal_observation"] = np.asarray(obs[i], dtype=np.float32)
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                if totals is not None:
                    infos[i]["totals"] = totals[i]
            # the vector env resets on the step after the last one (Gymnasium's NEXT_STEP mode);
            # SB3 wants the next games now, so they are dealt here (its action argument is ignored)
            obs, _, _, _, info = self.venv.step(np.zeros(self.num_envs, dtype=np.int64))
        self._mask = info["action_mask"]
        return np.asarray(obs, dtype=np.float32), np.asarray(rewards, dtype=np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """Returns the ``(num_envs, actions)`` boolean legal mask (never all false in a row)."""
        if self._mask is None:
            self.reset()
        assert self._mask is not None
        return self._mask.astype(bool)

    def close(self) -> None:
        """Closes the vector environment."""
        self.venv.close()

    # ------------------------------------------------------------------ per-env attributes

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        return list(self._get_indices(indices))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """Returns the attribute of this env (or else of the vector env) once per index: the games
        share one setting.

        :raises AttributeError: when neither has it.
        """
        for owner in (self, self.venv):
            if hasattr(owner, attr_name):
                value = getattr(owner, attr_name)
                return [value for _ in self._indices(indices)]
        raise AttributeError(f"{type(self).__name__} has no attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Sets the attribute on the vector env (one setting for every game)."""
        setattr(self.venv, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks`` gives each game's own row; any other method is called once on the vector
        env and its result repeated per index.

        :raises AttributeError: for an unknown method.
        """
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        """No game is wrapped in a Gymnasium wrapper (use SB3's ``VecEnvWrapper``s such as ``VecMonitor``)."""
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        """The games have no images."""
        return [None for _ in range(self.num_envs)]
