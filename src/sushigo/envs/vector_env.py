"""A vectorised Gymnasium environment on the batch engine: ``num_envs`` games of Sushi Go! per step.

``gymnasium.make_vec("sushigo/SushiGo-v0", num_envs=256, players=4)`` builds it (the id's
``vector_entry_point``). It has the single-seat environment's spaces and rewards (:mod:`.gym_env`): the
learning ``seat`` of every game sees the :mod:`.encoding` vector (``normalized=True`` for the
normalised one), ``infos["action_mask"]`` is ``(num_envs, actions)`` over the dense (2548) or compact
(``actions="compact"``, 182) codes, and the reward comes once, at the end.

Opponents:

* ``"random"`` (the default): uniformly random legal picks drawn by the batch engine itself;
* a batched policy function ``policy(observations, masks) -> actions`` over all seats' arrays, as
  :func:`sushigo.batch.engine.run` takes (dense codes);
* any bot spec of :mod:`.opponents` (``"mcts"``, ``("mcts", {"iterations": 50})``, ``"neural"``, a
  user's ``"module:Class"``, a bot instance, one per opponent seat or one for all, with
  ``opponent_options``). A per-decision function ``fn(observation, legal)`` is a bot here only inside
  a list (one per seat); a callable on its own is the batched policy above. Bots
  play from the core's observation of each game: the environment keeps one core game beside each
  batch game, replays every turn on it with the core's checked ``apply_turn``, and hands each bot only
  its seat's observation and legal picks. A bot with ``act_batch(observations, legal)`` (such as
  ``neural``) is asked once per seat for all games; any other bot gets one instance per game and seat.

All games of a batch are in lockstep, so they end on the same step; the next step then resets them
all (Gymnasium's ``NEXT_STEP`` autoreset mode). That next step's action is ignored, so the mask that
comes with the final observation (``terminated`` all true) allows exactly one action, code 0: a masked
sampler never sees an all-zero row (which would be an invalid distribution), and a trainer should drop
that transition as Gymnasium's next-step autoreset asks. :mod:`.sb3_vec_env` resets on the final step
itself, as Stable-Baselines3 expects.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from ..batch.engine import GAME, SushiGoBatch
from ..sushi_go.actions import ACTION_SPACE_SIZE, decode_action, encode_action
from ..sushi_go.cards import Card
from ..sushi_go.options import Config
from ..sushi_go.rules import State
from .encoding import (
    NORM_HIGH,
    NORM_LOW,
    compact_size,
    compact_to_dense,
    dense_mask_to_compact,
    obs_size,
    observation_scale,
)
from .gym_env import OBS_HIGH, OBS_LOW
from .opponents import (
    OpponentSpec,
    Spec,
    batch_method,
    check_specs,
    is_given,
    make_one,
    opponent_specs,
    reset_bot,
)

PolicyFn = Callable[[np.ndarray, np.ndarray], np.ndarray]


class SushiGoVectorEnv(VectorEnv):
    """``num_envs`` Sushi Go! games on the batch engine, one learning ``seat`` in each.

    :raises ValueError: for a bad seat, reward, encoding or opponent (unknown bot or option).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 8,
        players: int = 4,
        opponents: OpponentSpec | Sequence[OpponentSpec] | PolicyFn = "random",
        seat: int = 0,
        reward: Literal["margin", "win"] = "margin",
        *,
        opponent_options: dict[str, Any] | None = None,
        actions: Literal["dense", "compact"] = "dense",
        normalized: bool = False,
        **options: Any,
    ) -> None:
        options.pop("max_episode_steps", None)
        options.pop("render_mode", None)
        if reward not in ("margin", "win"):
            raise ValueError(f"unknown reward {reward!r}; expected margin or win")
        if actions not in ("dense", "compact"):
            raise ValueError(f"unknown action encoding {actions!r}; expected dense or compact")
        self.config = Config.from_options(players, options)
        if not 0 <= seat < players:
            raise ValueError(f"there is no seat {seat} in a {players}-player game")
        self.num_envs = num_envs
        self.players = players
        self.seat = seat
        self.opponents = opponents
        self.reward_kind = reward
        self.actions = actions
        self.normalized = bool(normalized)
        self.opponent_seats = [s for s in range(players) if s != seat]
        #: ``(name, options)`` per opponent seat when bots play, else ``None`` (random or a policy)
        self.opponent_specs: list[Spec] | None = None
        #: a batched policy function (a callable that is not a bot instance)
        self._policy: PolicyFn | None = None
        if callable(opponents) and not callable(getattr(opponents, "act", None)):
            self._policy = opponents
        elif not (isinstance(opponents, str) and opponents == "random" and not opponent_options):
            self.opponent_specs = opponent_specs(opponents, players - 1, opponent_options)
            check_specs(self.opponent_specs, GAME)
        size = obs_size(self.config)
        low, high = (NORM_LOW, NORM_HIGH) if self.normalized else (OBS_LOW, OBS_HIGH)
        self._scale = observation_scale(self.config) if self.normalized else None
        n_actions = ACTION_SPACE_SIZE if actions == "dense" else compact_size(self.config)
        self._n_actions = n_actions
        self.single_observation_space = spaces.Box(low, high, shape=(size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(n_actions)
        self.observation_space = spaces.Box(low, high, shape=(num_envs, size), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, n_actions))
        self._rng = np.random.default_rng()
        self.batch: SushiGoBatch | None = None
        self._mask: np.ndarray | None = None
        self._autoreset = False
        self.cores: list[State] = []
        #: per opponent seat: one shared batched bot, or a list of one bot per game (empty until the
        #: first reset, and always with random or policy opponents). Public so that a researcher can
        #: inspect the opponents a run used (their ``last_info``, their options) and check the batching.
        self.opponent_bots: dict[int, Any] = {}

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
        if self.opponent_specs is not None:
            self._deal_cores()
        return self._obs(), self._info()

    def _deal_cores(self) -> None:
        assert self.batch is not None and self.opponent_specs is not None
        cfg = self.config
        controllers = [0, 1, 0] if cfg.dummy else ()
        self.cores = [
            State.from_hands(
                cfg,
                [[[Card(int(c)) for c in hand] for hand in rnd] for rnd in deals],
                controllers=controllers,
            )
            for deals in self.batch.deals
        ]
        self.opponent_bots = {}
        for seat, (name, opts) in zip(self.opponent_seats, self.opponent_specs):
            # a given bot with act_batch serves every game as it is; any other plays a copy per game
            first = make_one(name, opts, int(self._rng.integers(1 << 31)), GAME, copy_given=False)
            if batch_method(first) is not None:
                reset_bot(first, seat, GAME, self.players)
                self.opponent_bots[seat] = first
                continue
            if is_given(name):
                first = make_one(name, opts, None, GAME)
            reset_bot(first, seat, GAME, self.players)
            bots = [first]
            for _ in range(1, self.num_envs):
                bot = make_one(name, opts, int(self._rng.integers(1 << 31)), GAME)
                reset_bot(bot, seat, GAME, self.players)
                bots.append(bot)
            self.opponent_bots[seat] = bots

    def _bot_codes(self) -> np.ndarray:
        """Asks every opponent bot for its pick in every game (before any pick is applied)."""
        n = self.num_envs
        full = np.zeros((n, self.players), dtype=np.int64)
        for seat, bots in self.opponent_bots.items():
            observations = [core.observe(seat) for core in self.cores]
            legal = [core.legal_actions(seat) for core in self.cores]
            if isinstance(bots, list):
                picks = [bot.act(o, lg) for bot, o, lg in zip(bots, observations, legal)]
            else:
                picks = list(batch_method(bots)(observations, legal))
            full[:, seat] = [encode_action(p) for p in picks]
        return full

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Plays the learning seat's ``(num_envs,)`` action codes, and the opponents' picks.

        :raises ValueError: when an action is not legal (nothing changes then), or a bot's pick is not.
        """
        n = self.num_envs
        if self.batch is None or self._autoreset:
            obs, info = self.reset()
            return obs, np.zeros(n), np.zeros(n, dtype=bool), np.zeros(n, dtype=bool), info
        batch = self.batch
        actions = np.asarray(actions, dtype=np.int64).reshape(n)
        mask = self._mask if self._mask is not None else self._learner_mask()
        size = mask.shape[1]
        ok = (actions >= 0) & (actions < size)
        ok &= mask[np.arange(n), np.clip(actions, 0, size - 1)] == 1
        if not ok.all():
            bad = int(np.flatnonzero(~ok)[0])
            raise ValueError(f"action {int(actions[bad])} of env {bad} is not legal now")
        dense = compact_to_dense(actions, self.config) if self.actions == "compact" else actions
        if self.opponent_specs is not None:
            full = self._bot_codes()
        elif self._policy is not None:
            masks = batch.legal_mask()
            full = np.asarray(self._policy(batch.observations(), masks), dtype=np.int64).copy()
        else:
            full = batch.random_actions()
        full[:, self.seat] = dense
        if self.opponent_specs is not None:
            for core, codes in zip(self.cores, full.tolist()):
                core.apply_turn([decode_action(c) for c in codes])
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
        if self._scale is not None:
            obs = obs / self._scale
        return obs

    def _learner_mask(self) -> np.ndarray:
        assert self.batch is not None
        mask = self.batch.legal_mask(self.seat)
        return dense_mask_to_compact(mask, self.config) if self.actions == "compact" else mask

    def _info(self) -> dict[str, Any]:
        assert self.batch is not None
        if self.batch.over:
            # the step after the last one resets and ignores its action: code 0 stands for "any"
            mask = np.zeros((self.num_envs, self._n_actions), dtype=np.int8)
            mask[:, 0] = 1
            self._mask = mask
        else:
            self._mask = self._learner_mask()
        info: dict[str, Any] = {"action_mask": self._mask}
        if self.batch.over:
            info["totals"] = self.batch.totals()[:, : self.players]
        return info
