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

from typing import Any, ClassVar, Literal

from ..errors import require

require("pettingzoo", "rl", "sushigo.envs.pettingzoo_env")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402

from .adapters import GameAdapter, make_adapter  # noqa: E402
from .common import Reward  # noqa: E402
from .encoding import STATE_HIGH, STATE_LOW  # noqa: E402
from .pettingzoo_common import AECBase, ParallelBase, PettingZooCommon, agent_spaces  # noqa: E402


class _Common(PettingZooCommon):
    """The Sushi Go! and Sushi Roll side of both flavours: the core through a :class:`.GameAdapter`."""

    adapter: GameAdapter
    core: Any

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
        self._setup_common(players, reward, render_mode, illegal_action, illegal_reward)
        self.adapter = self._scorer = make_adapter(game, players, actions=actions, normalized=normalized, **options)
        adapter = self.adapter
        self._set_spaces(
            *agent_spaces(adapter.obs_low, adapter.obs_high, adapter.obs_size, adapter.action_size),
            spaces.Box(STATE_LOW, STATE_HIGH, shape=(adapter.state_size,), dtype=np.float32),
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

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat(agent)
        return {
            "observation": self.adapter.encode(self.core, seat),
            "action_mask": self.adapter.mask(self.core, seat),
        }

    def _legal(self, seat: int, code: int) -> bool:
        if not 0 <= code < self.adapter.action_size:
            return False
        return bool(self.adapter.mask(self.core, seat)[code])

    def _play(self, seat: int, code: int) -> None:
        self.core.submit(seat, self.adapter.decode(code))

    def _to_act(self) -> list[int]:
        return list(self.core.to_act())

    def _game_over(self) -> bool:
        return bool(self.core.is_over())

    def _new_game(self, seed: int) -> None:
        self.core = self.adapter.new_state(seed)


class SushiAECEnv(_Common, AECBase):
    """Agent-environment-cycle environment for ``game`` ("sushi-go" or "sushi-roll")."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "sushigo_aec_v0",
        "is_parallelizable": True,
    }


class SushiParallelEnv(_Common, ParallelBase):
    """Parallel environment for ``game``: a step takes one action per live agent."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "sushigo_parallel_v0"}


def aec_env(game: str = "sushi-go", players: int = 4, **kwargs: Any) -> SushiAECEnv:
    """Returns a :class:`SushiAECEnv` (PettingZoo's ``env()`` convention)."""
    return SushiAECEnv(game, players, **kwargs)


def parallel_env(game: str = "sushi-go", players: int = 4, **kwargs: Any) -> SushiParallelEnv:
    """Returns a :class:`SushiParallelEnv` (PettingZoo's ``parallel_env()`` convention)."""
    return SushiParallelEnv(game, players, **kwargs)
