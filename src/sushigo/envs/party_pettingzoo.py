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

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from ..errors import require

require("pettingzoo", "rl", "sushigo.envs.party_pettingzoo")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402

from ..party.options import PartyConfig  # noqa: E402
from .adapters import GameAdapter  # noqa: E402
from .common import Reward  # noqa: E402
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
from .pettingzoo_common import AECBase, ParallelBase, PettingZooCommon, agent_spaces  # noqa: E402


class _PartyCommon(PettingZooCommon):
    """The Party side of both flavours: the core through a :class:`.party_encoding.PartyGame`."""

    game: PartyGame | None

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
        super().__init__()  # AECEnv's (ParallelEnv has none)
        self.normalized = bool(options.pop("normalized", False))
        PartyConfig.build(players, menu, options)
        self._setup_common(players, reward, render_mode, illegal_action, illegal_reward)
        self.players = players
        self.menu = menu if isinstance(menu, str) else list(menu)
        self.options = dict(options)
        self.codec = codec_for(self.options)
        self._totals = self._scorer = GameAdapter(players)
        low, high = (NORM_LOW, NORM_HIGH) if self.normalized else (OBS_LOW, OBS_HIGH)
        self._set_spaces(
            *agent_spaces(low, high, obs_size(players), self.codec.size),
            spaces.Box(OBS_LOW, OBS_HIGH, shape=(state_size(players),), dtype=np.float32),
        )
        self.game = None
        self.agents: list[str] = []

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

    def _live(self) -> PartyGame:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        game, seat = self._live(), self._seat(agent)
        return {"observation": game.observation(seat), "action_mask": game.mask(seat)}

    def _legal(self, seat: int, code: int) -> bool:
        return code in self._live().legal_codes(seat)

    def _play(self, seat: int, code: int) -> None:
        self._live().play_code(seat, code)

    def _to_act(self) -> list[int]:
        return list(self._live().to_act())

    def _game_over(self) -> bool:
        return self._live().is_over()

    def _new_game(self, seed: int) -> None:
        self.game = new_party_game(self.players, seed, self.codec, self.menu, self.options, normalized=self.normalized)


class PartyAECEnv(_PartyCommon, AECBase):
    """Agent-environment-cycle environment for Sushi Go Party! on ``menu`` (options as keywords)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "sushigo_party_aec_v0",
        "is_parallelizable": True,
    }


class PartyParallelEnv(_PartyCommon, ParallelBase):
    """Parallel environment for Sushi Go Party!: a step takes one action per live agent."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "sushigo_party_parallel_v0"}


def aec_env(players: int = 4, menu: str | Sequence[str] = "sushi_go", **kwargs: Any) -> PartyAECEnv:
    """Returns a :class:`PartyAECEnv` (PettingZoo's ``env()`` convention)."""
    return PartyAECEnv(players, menu, **kwargs)


def parallel_env(players: int = 4, menu: str | Sequence[str] = "sushi_go", **kwargs: Any) -> PartyParallelEnv:
    """Returns a :class:`PartyParallelEnv` (PettingZoo's ``parallel_env()`` convention)."""
    return PartyParallelEnv(players, menu, **kwargs)
