"""Gymnasium environments: one learning seat against bots, for Sushi Go! and Sushi Roll.

``gymnasium.make("sushigo/SushiGo-v0", players=4, opponents="heuristic")`` (after ``import
sushigo.envs``, which registers the ids; or ``gymnasium.make("sushigo.envs:sushigo/SushiGo-v0")``).

* Observation: a ``Box`` vector built from the learning seat's observation only
  (:mod:`.encoding`, :mod:`.roll_encoding`); ``normalized=True`` gives the normalised vector.
* Action: ``Discrete`` over the core's dense codes, or the compact ones (``actions="compact"``);
  ``info["action_mask"]`` (and :meth:`SushiEnv.action_masks`, which wrappers reach through
  ``env.get_wrapper_attr("action_masks")``, as sb3-contrib does) marks exactly the legal ones
  (chopsticks pairs and the dummy's card included).
* Opponents: any bot by name with its options (:mod:`.opponents`).
* Reward, given once at the end: ``"margin"`` is the seat's total minus the best other seat's total;
  ``"win"`` is +1 for a sole win, 0 for a shared win and -1 for a loss.
* An illegal action ends the episode with ``illegal_reward`` (``illegal_action="terminate"``, the
  default), or raises (``"raise"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from gymnasium import spaces

from .adapters import make_adapter
from .common import OneSeatEnv, Reward, final_reward
from .opponents import OpponentSpec

__all__ = ["OBS_HIGH", "OBS_LOW", "Reward", "SushiEnv", "SushiGoEnv", "SushiRollEnv", "final_reward"]

#: bounds of the raw observation vectors (scores of finished rounds are the largest entries)
OBS_LOW = -100.0
OBS_HIGH = 1000.0


class SushiEnv(OneSeatEnv):
    """One learning ``seat`` plays ``game`` against bots named by ``opponents``.

    Game options (``pass_both_ways``, ``soy_sauce``, ``dummy``... for Sushi Go!, ``dice`` for Sushi
    Roll) are passed as keywords. The core game is ``core`` (``None`` before the first ``reset``).

    :raises ValueError: for a bad seat, reward, encoding or opponent (unknown bot or option).
    """

    def __init__(
        self,
        game: str = "sushi-go",
        players: int = 4,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
        seat: int = 0,
        reward: Reward = "margin",
        illegal_action: Literal["terminate", "raise"] = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        *,
        opponent_options: dict[str, Any] | None = None,
        actions: Literal["dense", "compact"] = "dense",
        normalized: bool = False,
        **options: Any,
    ) -> None:
        self.adapter = make_adapter(game, players, actions=actions, normalized=normalized, **options)
        self._scorer = self.adapter
        self.game = game
        self._setup_seat(
            game, players, opponents, seat, reward, illegal_action, illegal_reward, render_mode, opponent_options
        )
        self.observation_space = spaces.Box(
            self.adapter.obs_low, self.adapter.obs_high, shape=(self.adapter.obs_size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.adapter.action_size)
        self.core: Any = None

    def _deal(self, seed: int) -> None:
        self.core = self.adapter.new_state(seed)

    def _legal(self, code: int) -> bool:
        mask = self.adapter.mask(self.core, self.seat)
        return 0 <= code < len(mask) and bool(mask[code])

    def _play(self, code: int) -> None:
        self.core.submit(self.seat, self.adapter.decode(code))

    def _secret_pickers(self) -> list[int]:
        if not self.adapter.is_simultaneous():
            return []
        return [s for s in self.core.to_act() if s != self.seat]

    def _mask(self) -> np.ndarray:
        return self.adapter.mask(self.core, self.seat)

    def _obs(self) -> np.ndarray:
        return self.adapter.encode(self.core, self.seat)


class SushiGoEnv(SushiEnv):
    """``sushigo/SushiGo-v0``: Sushi Go! for one learning seat."""

    def __init__(
        self, players: int = 4, opponents: OpponentSpec | Sequence[OpponentSpec] = "random", **kwargs: Any
    ) -> None:
        super().__init__("sushi-go", players, opponents, **kwargs)


class SushiRollEnv(SushiEnv):
    """``sushigo/SushiRoll-v0``: Sushi Roll for one learning seat."""

    def __init__(
        self, players: int = 4, opponents: OpponentSpec | Sequence[OpponentSpec] = "random", **kwargs: Any
    ) -> None:
        super().__init__("sushi-roll", players, opponents, **kwargs)
