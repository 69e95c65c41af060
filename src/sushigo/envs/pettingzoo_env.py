"""PettingZoo environments for both games: an AEC environment and a Parallel environment.

Agents are ``"player_0"`` … ``"player_{n-1}"`` (the dummy is not an agent). Each agent observes
``{"observation": vector, "action_mask": int8 mask}`` built from its own seat's observation only
(:mod:`.encoding`, :mod:`.roll_encoding`); actions are the core's dense codes. Rewards are 0 until the
end, then ``"margin"`` (own total minus the best other total) or ``"win"`` (+1 sole win, 0 shared,
-1 loss).

* :class:`SushiParallelEnv` fits Sushi Go!'s simultaneous picks: every agent acts on every step. In
  Sushi Roll only the agent to act has a non-empty mask; the other agents' actions are ignored.
* ``state()`` returns the documented global state (every hidden card included, for centralised
  critics: :func:`.encoding.encode_state`, :func:`.roll_encoding.encode_state`) in ``state_space``;
  the core game is the attribute ``core``.
* ``actions="compact"`` uses the compact action codes, ``normalized=True`` the normalised vector.
* :class:`SushiAECEnv` asks one agent at a time. Sushi Go! picks are collected secretly and the turn
  resolves after the last agent's pick (no agent ever sees another's pending pick).

An illegal action ends the game as PettingZoo's classic environments do (``illegal_action="terminate"``,
the default): the offending agent gets ``illegal_reward`` (-1), the others 0, and its info holds
``"illegal_action": True``. With ``illegal_action="raise"`` it raises
:class:`~sushigo.errors.IllegalActionError` instead.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar, Literal

from ..errors import IllegalActionError, require

require("pettingzoo", "rl", "sushigo.envs.pettingzoo_env")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv, ParallelEnv  # noqa: E402

from .adapters import GameAdapter, make_adapter  # noqa: E402
from .encoding import STATE_HIGH, STATE_LOW  # noqa: E402
from .gym_env import final_reward  # noqa: E402

Reward = Literal["margin", "win"]


def _spaces(adapter: GameAdapter) -> tuple[spaces.Dict, spaces.Discrete]:
    obs = spaces.Dict(
        {
            "observation": spaces.Box(
                adapter.obs_low, adapter.obs_high, shape=(adapter.obs_size,), dtype=np.float32
            ),
            "action_mask": spaces.Box(0, 1, shape=(adapter.action_size,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(adapter.action_size)


class _Common:
    """What both PettingZoo flavours share: agents, spaces, observations and final rewards."""

    adapter: GameAdapter
    core: Any
    reward_kind: Reward
    render_mode: str | None

    def _setup(
        self,
        game: str,
        players: int,
        reward: Reward,
        render_mode: str | None,
        illegal_action: str,
        illegal_reward: float,
        options: dict[str, Any],
    ) -> None:
        actions = options.pop("actions", "dense")
        normalized = bool(options.pop("normalized", False))
        if reward not in ("margin", "win"):
            raise ValueError(f"unknown reward {reward!r}; expected margin or win")
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(f"unknown illegal_action {illegal_action!r}; expected terminate or raise")
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.illegal_agent: str | None = None
        self.adapter = make_adapter(game, players, actions=actions, normalized=normalized, **options)
        self.reward_kind = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        obs_space, act_space = _spaces(self.adapter)
        self._obs_spaces = {a: obs_space for a in self.possible_agents}
        self._act_spaces = {a: act_space for a in self.possible_agents}
        self.state_space = spaces.Box(
            STATE_LOW, STATE_HIGH, shape=(self.adapter.state_size,), dtype=np.float32
        )
        self.core = None

    def state(self) -> np.ndarray:
        """Returns the global state vector (docs/environments.md), for centralised critics only: it holds
        every hidden card, so it must never be a policy's input.

        :raises RuntimeError: before ``reset()``.
        """
        if self.core is None:
            raise RuntimeError("state() needs a game: call reset() first")
        return self.adapter.encode_state(self.core)

    def observation_space(self, agent: str) -> spaces.Space:
        """Returns the agent's ``Dict`` observation space."""
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """Returns the agent's ``Discrete`` action space."""
        return self._act_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat(agent)
        return {
            "observation": self.adapter.encode(self.core, seat),
            "action_mask": self.adapter.mask(self.core, seat),
        }

    def _is_legal(self, seat: int, code: int) -> bool:
        if not 0 <= code < self.adapter.action_size:
            return False
        return bool(self.adapter.mask(self.core, seat)[code])

    def _refuse(self, agent: str, code: int) -> None:
        if self.illegal_action == "raise":
            raise IllegalActionError(f"action {code} is not legal for {agent} now", seat=self._seat(agent))
        self.illegal_agent = agent

    def _is_over(self) -> bool:
        return self.illegal_agent is not None or bool(self.core.is_over())

    def _final_rewards(self) -> dict[str, float]:
        if self.illegal_agent is not None:
            return {a: self.illegal_reward if a == self.illegal_agent else 0.0 for a in self.possible_agents}
        return {
            a: final_reward(self.adapter, self.core, i, self.reward_kind)
            for i, a in enumerate(self.possible_agents)
        }

    def _final_info(self, agent: str) -> dict[str, Any]:
        if self.illegal_agent is not None:
            return {"illegal_action": agent == self.illegal_agent}
        return {"totals": self.adapter.totals(self.core)}

    def _new_state(self, seed: int | None) -> None:
        self.illegal_agent = None
        rng = np.random.default_rng(seed)
        self.core = self.adapter.new_state(int(rng.integers(1 << 31)))

    def render(self) -> str | None:
        """Returns the spectator's view as JSON text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi" or self.core is None:
            return None
        return json.dumps(self.core.observe(None).to_json(), default=str)

    def close(self) -> None:
        """Releases nothing: the environment holds no resources."""


class SushiAECEnv(_Common, AECEnv):
    """Agent-environment-cycle environment for ``game`` ("sushi-go" or "sushi-roll")."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "sushigo_aec_v0",
        "is_parallelizable": True,
    }

    def __init__(
        self,
        game: str = "sushi-go",
        players: int = 4,
        reward: Reward = "margin",
        render_mode: str | None = None,
        illegal_action: Literal["terminate", "raise"] = "terminate",
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        AECEnv.__init__(self)
        self._setup(game, players, reward, render_mode, illegal_action, illegal_reward, options)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game (dealt from ``seed`` when given)."""
        self._new_state(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._next_agent()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Returns ``agent``'s observation and action mask."""
        return self._observe(agent)

    def step(self, action: Any) -> None:
        """Plays the selected agent's action (``None`` for an agent that is done).

        :raises IllegalActionError: for an illegal action with ``illegal_action="raise"``.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat(agent)
        code = int(action)
        self._cumulative_rewards[agent] = 0.0
        if self._is_legal(seat, code):
            self.core.submit(seat, self.adapter.decode(code))
        else:
            self._refuse(agent, code)
        self.rewards = {a: 0.0 for a in self.agents}
        if self._is_over():
            self.rewards = self._final_rewards()
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a] = self._final_info(a)
        self.agent_selection = self._next_agent()
        self._accumulate_rewards()

    def _next_agent(self) -> str:
        if self._is_over():
            return self.agents[0] if self.agents else self.possible_agents[0]
        return self.possible_agents[self.core.to_act()[0]]


class SushiParallelEnv(_Common, ParallelEnv):
    """Parallel environment for ``game``: a step takes one action per live agent."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "sushigo_parallel_v0"}

    def __init__(
        self,
        game: str = "sushi-go",
        players: int = 4,
        reward: Reward = "margin",
        render_mode: str | None = None,
        illegal_action: Literal["terminate", "raise"] = "terminate",
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        self._setup(game, players, reward, render_mode, illegal_action, illegal_reward, options)
        self.agents: list[str] = []

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Starts a new game and returns every agent's observation."""
        self._new_state(seed)
        self.agents = self.possible_agents[:]
        return {a: self._observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Plays every acting agent's action at once (others' actions are ignored).

        :raises IllegalActionError: for an illegal action of an acting agent with ``illegal_action="raise"``
            (nothing changes then).
        """
        state = self.core
        picks = []
        for seat in state.to_act():
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise IllegalActionError(f"{agent} must act this step", seat=seat)
            code = int(actions[agent])
            if not self._is_legal(seat, code):
                self._refuse(agent, code)
                break
            picks.append((seat, self.adapter.decode(code)))
        if self.illegal_agent is None:
            for seat, pick in picks:
                state.submit(seat, pick)
        over = self._is_over()
        rewards = self._final_rewards() if over else {a: 0.0 for a in self.agents}
        obs = {a: self._observe(a) for a in self.agents}
        terms = {a: over for a in self.agents}
        truncs = {a: False for a in self.agents}
        infos: dict[str, dict[str, Any]] = {a: (self._final_info(a) if over else {}) for a in self.agents}
        if over:
            self.agents = []
        return obs, rewards, terms, truncs, infos


def aec_env(game: str = "sushi-go", players: int = 4, **kwargs: Any) -> SushiAECEnv:
    """Returns a :class:`SushiAECEnv` (PettingZoo's ``env()`` convention)."""
    return SushiAECEnv(game, players, **kwargs)


def parallel_env(game: str = "sushi-go", players: int = 4, **kwargs: Any) -> SushiParallelEnv:
    """Returns a :class:`SushiParallelEnv` (PettingZoo's ``parallel_env()`` convention)."""
    return SushiParallelEnv(game, players, **kwargs)
