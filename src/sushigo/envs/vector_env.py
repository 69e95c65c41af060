"""A vectorised Gymnasium environment on the batch engine: ``num_envs`` games of Sushi Go! per step.

``gymnasium.make_vec("sushigo/SushiGo-v0", num_envs=256, players=4)`` builds it (the id's
``vector_entry_point``; pass ``vectorization_mode="sync"`` for bot opponents other than ``"random"``).
It has the single-seat environment's spaces and rewards (:mod:`.gym_env`): the learning ``seat`` of
every game sees the :mod:`.encoding` vector, ``infos["action_mask"]`` is ``(num_envs, 2548)``, and
the reward comes once, at the end. The opponents are uniformly random legal picks (``"random"``) or a
batched policy function ``policy(observations, masks) -> actions`` over all seats' arrays, as
:func:`sushigo.batch.engine.run` takes.

All games of a batch are in lockstep, so they end on the same step; the next step then resets them
all (Gymnasium's ``NEXT_STEP`` autoreset mode).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from ..batch.engine import SushiGoBatch
from ..sushi_go.actions import ACTION_SPACE_SIZE
from ..sushi_go.options import Config
from .encoding import obs_size
from .gym_env import OBS_HIGH, OBS_LOW

PolicyFn = Callable[[np.ndarray, np.ndarray], np.ndarray]


class SushiGoVectorEnv(VectorEnv):
    """``num_envs`` Sushi Go! games on the batch engine, one learning ``seat`` in each."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 8,
        players: int = 4,
        opponents: str | PolicyFn = "random",
        seat: int = 0,
        reward: Literal["margin", "win"] = "margin",
        **options: Any,
    ) -> None:
        options.pop("max_episode_steps", None)
        options.pop("render_mode", None)
        if isinstance(opponents, str) and opponents != "random":
            raise ValueError(
                f"the batch engine plays 'random' opponents or a policy function, not {opponents!r}; "
                "use gymnasium.make_vec(..., vectorization_mode='sync') for bot opponents"
            )
        if reward not in ("margin", "win"):
            raise ValueError(f"unknown reward {reward!r}; expected margin or win")
        self.config = Config.from_options(players, options)
        if not 0 <= seat < players:
            raise ValueError(f"there is no seat {seat} in a {players}-player game")
        self.num_envs = num_envs
        self.players = players
        self.seat = seat
        self.opponents = opponents
        self.reward_kind = reward
        size = obs_size(self.config)
        self.single_observation_space = spaces.Box(OBS_LOW, OBS_HIGH, shape=(size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(ACTION_SPACE_SIZE)
        self.observation_space = spaces.Box(OBS_LOW, OBS_HIGH, shape=(num_envs, size), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, ACTION_SPACE_SIZE))
        self._rng = np.random.default_rng()
        self.batch: SushiGoBatch | None = None
        self._mask: np.ndarray | None = None
        self._autoreset = False

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deals ``num_envs`` new games (from ``seed`` when given)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed if isinstance(seed, int) else seed[0])
            self.single_action_space.seed(int(self._rng.integers(1 << 31)))
            self.action_space.seed(int(self._rng.integers(1 << 31)))
        self.batch = SushiGoBatch(self.config, self.num_envs, self._rng)
        self._autoreset = False
        self._mask = None
        return self._obs(), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Plays the learning seat's ``(num_envs,)`` action codes, and the opponents' picks.

        :raises ValueError: when an action is not legal (nothing changes then).
        """
        n = self.num_envs
        if self.batch is None or self._autoreset:
            obs, info = self.reset()
            return obs, np.zeros(n), np.zeros(n, dtype=bool), np.zeros(n, dtype=bool), info
        batch = self.batch
        actions = np.asarray(actions, dtype=np.int64).reshape(n)
        mask = self._mask if self._mask is not None else batch.legal_mask(self.seat)
        ok = (actions >= 0) & (actions < ACTION_SPACE_SIZE)
        ok &= mask[np.arange(n), np.clip(actions, 0, ACTION_SPACE_SIZE - 1)] == 1
        if not ok.all():
            bad = int(np.flatnonzero(~ok)[0])
            raise ValueError(f"action {int(actions[bad])} of env {bad} is not legal now")
        if callable(self.opponents):
            masks = batch.legal_mask()
            full = np.asarray(self.opponents(batch.observations(), masks), dtype=np.int64).copy()
        else:
            full = batch.random_actions()
        full[:, self.seat] = actions
        batch.step(full)
        rewards = np.zeros(n)
        over = batch.over
        if over:
            rewards = self._final_rewards()
            self._autoreset = True
        terminated = np.full(n, over)
        return self._obs(), rewards, terminated, np.zeros(n, dtype=bool), self._info()

    def _final_rewards(self) -> np.ndarray:
        assert self.batch is not None
        p, seat = self.players, self.seat
        if self.reward_kind == "margin":
            totals = self.batch.totals()[:, :p].astype(np.float64)
            others = np.delete(totals, seat, axis=1)
            margin: np.ndarray = totals[:, seat] - others.max(axis=1)
            return margin
        winners = self.batch.winners()
        shared = winners.sum(axis=1) > 1
        won = winners[:, seat]
        return np.where(won, np.where(shared, 0.0, 1.0), -1.0)

    def _obs(self) -> np.ndarray:
        assert self.batch is not None
        obs: np.ndarray = self.batch.observations()[:, self.seat]
        return obs

    def _info(self) -> dict[str, Any]:
        assert self.batch is not None
        self._mask = self.batch.legal_mask(self.seat)
        info: dict[str, Any] = {"action_mask": self._mask}
        if self.batch.over:
            info["totals"] = self.batch.totals()[:, : self.players]
        return info
