"""PettingZoo environments for Sushi Go Party!: AEC and Parallel, with ``state()`` for centralised critics.

Agents are ``"player_0"`` … ``"player_{n-1}"``. Each observes ``{"observation": vector, "action_mask":
int8 mask}`` from its own seat's observation only (:mod:`.party_encoding`); actions are the Party
codes. Rewards are 0 until the end, then ``"margin"`` or ``"win"`` as in :mod:`.pettingzoo_env`.

* :class:`PartyAECEnv` asks one agent at a time: in the choose phase the agents that still owe their
  secret pick, in seat order (each pick stays hidden until the turn resolves); then each decision of
  the resolve phase (chopsticks' second card, a spoon's request or a victim's variant, a menu's pick,
  a takeout box's flips card by card) by its decider.
* :class:`PartyParallelEnv`: a step takes one action per live agent; only the agents that owe a
  decision (every one in the choose phase, the decider in the resolve phase) have a non-empty mask, the
  others' actions are ignored.
* ``normalized=True`` gives the normalised observation vector (:func:`.party_encoding.observation_scale`).
* ``state()`` is :meth:`.party_encoding.PartyGame.state_vector` in ``state_space``: it holds every
  hidden card, for critics only.

An illegal action ends the game (``illegal_action="terminate"``: the offender gets ``illegal_reward``,
its info ``"illegal_action": True``) or raises :class:`~sushigo.errors.IllegalActionError` (``"raise"``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from ..errors import IllegalActionError, require

require("pettingzoo", "rl", "sushigo.envs.party_pettingzoo")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv, ParallelEnv  # noqa: E402

from ..party.options import PartyConfig  # noqa: E402
from .adapters import GameAdapter  # noqa: E402
from .gym_env import Reward, final_reward  # noqa: E402
from .party_encoding import (  # noqa: E402
    NORM_HIGH,
    NORM_LOW,
    OBS_HIGH,
    OBS_LOW,
    PartyGame,
    codec_for,
    new_party_game,
    obs_size,
    state_size,
)


class _PartyCommon:
    """What both flavours share: agents, spaces, observations, ``state()`` and final rewards."""

    game: PartyGame | None
    render_mode: str | None

    def _setup(
        self,
        players: int,
        menu: str | Sequence[str],
        reward: Reward,
        render_mode: str | None,
        illegal_action: str,
        illegal_reward: float,
        options: dict[str, Any],
    ) -> None:
        self.normalized = bool(options.pop("normalized", False))
        PartyConfig.build(players, menu, options)
        if reward not in ("margin", "win"):
            raise ValueError(f"unknown reward {reward!r}; expected margin or win")
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(f"unknown illegal_action {illegal_action!r}; expected terminate or raise")
        self.players = players
        self.menu = menu if isinstance(menu, str) else list(menu)
        self.options = dict(options)
        self.codec = codec_for(self.options)
        self.reward_kind: Reward = reward
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.illegal_agent: str | None = None
        self._totals = GameAdapter(players)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        low, high = (NORM_LOW, NORM_HIGH) if self.normalized else (OBS_LOW, OBS_HIGH)
        obs = spaces.Dict(
            {
                "observation": spaces.Box(low, high, shape=(obs_size(players),), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.codec.size,), dtype=np.int8),
            }
        )
        act = spaces.Discrete(self.codec.size)
        self._obs_spaces = {a: obs for a in self.possible_agents}
        self._act_spaces = {a: act for a in self.possible_agents}
        self.state_space = spaces.Box(OBS_LOW, OBS_HIGH, shape=(state_size(players),), dtype=np.float32)
        self.game = None

    @property
    def core(self) -> Any:
        """The core :class:`~sushigo.party.PartyState` (``None`` before ``reset``)."""
        return None if self.game is None else self.game.core

    def state(self) -> np.ndarray:
        """Returns the global state vector (every hidden card included: never a policy's input).

        :raises RuntimeError: before ``reset()``.
        """
        if self.game is None:
            raise RuntimeError("state() needs a game: call reset() first")
        return self.game.state_vector()

    def observation_space(self, agent: str) -> spaces.Space:
        """Returns the agent's ``Dict`` observation space."""
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """Returns the agent's ``Discrete`` action space."""
        return self._act_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _live(self) -> PartyGame:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        game, seat = self._live(), self._seat(agent)
        return {"observation": game.observation(seat), "action_mask": game.mask(seat)}

    def _refuse(self, agent: str, code: int) -> None:
        if self.illegal_action == "raise":
            raise IllegalActionError(f"action {code} is not legal for {agent} now", seat=self._seat(agent))
        self.illegal_agent = agent

    def _is_over(self) -> bool:
        return self.illegal_agent is not None or self._live().is_over()

    def _final_rewards(self) -> dict[str, float]:
        if self.illegal_agent is not None:
            return {a: self.illegal_reward if a == self.illegal_agent else 0.0 for a in self.possible_agents}
        core = self._live().core
        return {a: final_reward(self._totals, core, i, self.reward_kind) for i, a in enumerate(self.possible_agents)}

    def _final_info(self, agent: str) -> dict[str, Any]:
        if self.illegal_agent is not None:
            return {"illegal_action": agent == self.illegal_agent}
        return {"totals": self._totals.totals(self._live().core)}

    def _new_game(self, seed: int | None) -> None:
        self.illegal_agent = None
        rng = np.random.default_rng(seed)
        self.game = new_party_game(
            self.players, int(rng.integers(1 << 31)), self.codec, self.menu, self.options, normalized=self.normalized
        )

    def render(self) -> str | None:
        """Returns the spectator's view as JSON text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        return json.dumps(self.game.core.observe(None).to_json(), default=str)

    def close(self) -> None:
        """Releases nothing: the environment holds no resources."""


class PartyAECEnv(_PartyCommon, AECEnv):
    """Agent-environment-cycle environment for Sushi Go Party! on ``menu`` (options as keywords)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "sushigo_party_aec_v0",
        "is_parallelizable": True,
    }

    def __init__(
        self,
        players: int = 4,
        menu: str | Sequence[str] = "sushi_go",
        reward: Reward = "margin",
        render_mode: str | None = None,
        illegal_action: Literal["terminate", "raise"] = "terminate",
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        AECEnv.__init__(self)
        self._setup(players, menu, reward, render_mode, illegal_action, illegal_reward, options)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game (dealt from ``seed`` when given)."""
        self._new_game(seed)
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
        """Plays the selected agent's code (``None`` for an agent that is done).

        :raises IllegalActionError: for an illegal code with ``illegal_action="raise"``.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game, seat, code = self._live(), self._seat(agent), int(action)
        self._cumulative_rewards[agent] = 0.0
        if code in game.legal_codes(seat):
            game.play_code(seat, code)
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
        return self.possible_agents[self._live().to_act()[0]]


class PartyParallelEnv(_PartyCommon, ParallelEnv):
    """Parallel environment for Sushi Go Party!: a step takes one action per live agent."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "sushigo_party_parallel_v0"}

    def __init__(
        self,
        players: int = 4,
        menu: str | Sequence[str] = "sushi_go",
        reward: Reward = "margin",
        render_mode: str | None = None,
        illegal_action: Literal["terminate", "raise"] = "terminate",
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        self._setup(players, menu, reward, render_mode, illegal_action, illegal_reward, options)
        self.agents: list[str] = []

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Starts a new game and returns every agent's observation."""
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        return {a: self._observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Plays every acting agent's code at once (the others' are ignored); all are checked first.

        :raises IllegalActionError: for a missing action of an acting agent, or an illegal one with
            ``illegal_action="raise"`` (nothing changes then).
        """
        game = self._live()
        plays = []
        for seat in game.to_act():
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise IllegalActionError(f"{agent} must act this step", seat=seat)
            code = int(actions[agent])
            if code not in game.legal_codes(seat):
                self._refuse(agent, code)
                break
            plays.append((seat, code))
        if self.illegal_agent is None:
            for seat, code in plays:
                game.play_code(seat, code)
        over = self._is_over()
        rewards = self._final_rewards() if over else {a: 0.0 for a in self.agents}
        obs = {a: self._observe(a) for a in self.agents}
        terms = {a: over for a in self.agents}
        truncs = {a: False for a in self.agents}
        infos: dict[str, dict[str, Any]] = {a: (self._final_info(a) if over else {}) for a in self.agents}
        if over:
            self.agents = []
        return obs, rewards, terms, truncs, infos


def aec_env(players: int = 4, menu: str | Sequence[str] = "sushi_go", **kwargs: Any) -> PartyAECEnv:
    """Returns a :class:`PartyAECEnv` (PettingZoo's ``env()`` convention)."""
    return PartyAECEnv(players, menu, **kwargs)


def parallel_env(players: int = 4, menu: str | Sequence[str] = "sushi_go", **kwargs: Any) -> PartyParallelEnv:
    """Returns a :class:`PartyParallelEnv` (PettingZoo's ``parallel_env()`` convention)."""
    return PartyParallelEnv(players, menu, **kwargs)
