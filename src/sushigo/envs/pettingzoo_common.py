"""The PettingZoo environments' one implementation, for every game (:mod:`.pettingzoo_env`).

The agent cycle, the illegal-action rule, final rewards and infos are one contract for all games;
:class:`PettingZooCommon` holds the game's :class:`~.adapters.GameAdapter` (chosen once, by name) and
never asks which game it is. :class:`AECBase` and :class:`ParallelBase` are the two flavours' loops.

Waiting agents. In a game where some seats owe no decision at times (the adapter's
``has_waiting_seats``: Sushi Roll, Sushi Go Party!), the action space has one more code, the no-op
(``noop``, the last code). A waiting agent's mask allows the no-op alone, so no mask is ever all zero
(masked samplers such as torchrl's reject an empty row); whatever a waiting agent plays is ignored.
The AEC environment then asks every agent in seat order, one cycle per parallel step: the seats that
owe a decision when the cycle starts decide, the others play the no-op, and the game ends only at the
end of a cycle. That is the contract PettingZoo's ``aec_to_parallel`` needs, and the cycle is exactly
one step of the Parallel environment. Sushi Go! has no waiting seats: no no-op, and its AEC
environment asks the seats that still owe their secret pick, which is the same cycle.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from ..errors import IllegalActionError, require

require("pettingzoo", "rl", "sushigo.envs.pettingzoo_common")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv, ParallelEnv  # noqa: E402

from .adapters import GameAdapter, make_adapter  # noqa: E402
from .common import Reward, check_settings, final_reward  # noqa: E402


def agent_spaces(
    obs_low: Any, obs_high: Any, obs_size: int, action_size: int
) -> tuple[spaces.Dict, spaces.Discrete]:
    """Returns one agent's ``Dict`` observation space (vector and int8 action mask) and action space."""
    obs = spaces.Dict(
        {
            "observation": spaces.Box(obs_low, obs_high, shape=(obs_size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(action_size,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(action_size)


class PettingZooCommon:
    """Agents, spaces, the illegal-action rule and final rewards over one game's adapter.

    ``adapter`` is the game's :class:`~.adapters.GameAdapter`; ``core`` is the core state (``None``
    before ``reset``).
    """

    adapter: GameAdapter
    core: Any
    render_mode: str | None

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
        super().__init__()  # AECEnv's (ParallelEnv has none)
        actions = options.pop("actions", "dense")
        normalized = bool(options.pop("normalized", False))
        check_settings(reward, illegal_action)
        adapter = make_adapter(game, players, actions=actions, normalized=normalized, **options)
        self.adapter = adapter
        self.game = game
        self.players = players
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.illegal_agent: str | None = None
        self.reward_kind: Reward = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        #: the no-op code of waiting agents (the last code), or ``None`` when every seat always acts
        self.noop: int | None = adapter.action_size if adapter.has_waiting_seats else None
        n_actions = adapter.action_size + (0 if self.noop is None else 1)
        obs_space, act_space = agent_spaces(adapter.obs_low, adapter.obs_high, adapter.obs_size, n_actions)
        self._obs_spaces = {a: obs_space for a in self.possible_agents}
        self._act_spaces = {a: act_space for a in self.possible_agents}
        self.state_space = spaces.Box(
            adapter.state_low, adapter.state_high, shape=(adapter.state_size,), dtype=np.float32
        )
        self.core = None
        self.agents: list[str] = []

    def state(self) -> np.ndarray:
        """Returns the global state vector (docs/environments.md), for centralised critics only: it holds
        every hidden card, so it must never be a policy's input.

        :raises RuntimeError: before ``reset()``.
        """
        if self.core is None:
            raise RuntimeError("state() needs a game: call reset() first")
        return self.adapter.encode_state(self.core)

    # ---------------------------------------------------------------- shared API

    def observation_space(self, agent: str) -> spaces.Space:
        """Returns the agent's ``Dict`` observation space."""
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """Returns the agent's ``Discrete`` action space."""
        return self._act_spaces[agent]

    def render(self) -> str | None:
        """Returns the spectator's view as JSON text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi" or self.core is None:
            return None
        return json.dumps(self.core.observe(None).to_json(), default=str)

    def close(self) -> None:
        """Releases nothing: the environment holds no resources."""

    # ---------------------------------------------------------------- internals

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _start(self, seed: int | None) -> None:
        self.illegal_agent = None
        rng = np.random.default_rng(seed)
        self.core = self.adapter.new_state(int(rng.integers(1 << 31)))

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.core is None:
            raise RuntimeError("call reset() first")
        seat = self._seat(agent)
        if self.noop is None:
            mask = self.adapter.mask(self.core, seat)
        else:
            mask = np.zeros(self.noop + 1, dtype=np.int8)
            if self._acts(seat):
                mask[: self.noop] = self.adapter.mask(self.core, seat)
            else:
                mask[self.noop] = 1
        return {"observation": self.adapter.encode(self.core, seat), "action_mask": mask}

    def _acts(self, seat: int) -> bool:
        """Whether ``seat`` owes a decision in this step (the AEC cycle narrows it to the cycle's deciders)."""
        return not self._is_over() and seat in self._to_act()

    def _legal(self, seat: int, code: int) -> bool:
        return self.adapter.is_legal(self.core, seat, code)

    def _play(self, seat: int, code: int) -> None:
        self.adapter.play(self.core, seat, code)

    def _to_act(self) -> list[int]:
        return list(self.core.to_act())

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


class AECBase(PettingZooCommon, AECEnv):
    """The agent-environment cycle: one agent at a time, secret picks resolved after the last one."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game (dealt from ``seed`` when given)."""
        self._start(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._cycle_start()
        self.agent_selection = self._next_agent()

    def _cycle_start(self) -> None:
        #: position in the cycle of agents, and the seats that decide in it (no-op games only)
        self._pos = 0
        self._deciders = set(self._to_act()) if not self._is_over() else set()

    def _acts(self, seat: int) -> bool:
        return seat in self._deciders and super()._acts(seat)

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
        self._cumulative_rewards[agent] = 0.0
        if self.noop is None or self._acts(seat):
            code = int(action)
            if self._legal(seat, code):
                self._play(seat, code)
            else:
                self._refuse(agent, code)
        # else: a waiting agent's action is ignored (its mask allows only the no-op)
        self.rewards = {a: 0.0 for a in self.agents}
        cycle_over = True
        if self.noop is not None:
            self._pos += 1
            cycle_over = self._pos == len(self.possible_agents)
            if cycle_over and not self._is_over():
                self._cycle_start()
        if cycle_over and self._is_over():
            self.rewards = self._final_rewards()
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a] = self._final_info(a)
        self.agent_selection = self._next_agent()
        self._accumulate_rewards()

    def _next_agent(self) -> str:
        if self.noop is not None and self._pos < len(self.possible_agents):
            return self.possible_agents[self._pos]
        if self._is_over():
            return self.agents[0] if self.agents else self.possible_agents[0]
        return self.possible_agents[self._to_act()[0]]


class ParallelBase(PettingZooCommon, ParallelEnv):
    """The parallel loop: a step takes one action per live agent; only the acting agents' count."""

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Starts a new game and returns every agent's observation."""
        self._start(seed)
        self.agents = self.possible_agents[:]
        return {a: self._observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Plays every acting agent's action at once (the waiting agents' are ignored: their mask allows
        only the no-op); all are checked first.

        :raises IllegalActionError: for a missing action of an acting agent, or an illegal one with
            ``illegal_action="raise"`` (nothing changes then).
        """
        plays = []
        for seat in self._to_act():
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise IllegalActionError(f"{agent} must act this step", seat=seat)
            code = int(actions[agent])
            if not self._legal(seat, code):
                self._refuse(agent, code)
                break
            plays.append((seat, code))
        if self.illegal_agent is None:
            for seat, code in plays:
                self._play(seat, code)
        over = self._is_over()
        rewards = self._final_rewards() if over else {a: 0.0 for a in self.agents}
        obs = {a: self._observe(a) for a in self.agents}
        terms = {a: over for a in self.agents}
        truncs = {a: False for a in self.agents}
        infos: dict[str, dict[str, Any]] = {a: (self._final_info(a) if over else {}) for a in self.agents}
        if over:
            self.agents = []
        return obs, rewards, terms, truncs, infos
