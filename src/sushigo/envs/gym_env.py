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

import json
from collections.abc import Sequence
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..errors import IllegalActionError
from .adapters import GameAdapter, make_adapter
from .opponents import OpponentSpec, bot_actions, check_specs, make_opponents, opponent_specs

Reward = Literal["margin", "win"]
#: bounds of the raw observation vectors (scores of finished rounds are the largest entries)
OBS_LOW = -100.0
OBS_HIGH = 1000.0


def final_reward(adapter: GameAdapter, state: Any, seat: int, reward: Reward) -> float:
    """Returns the end-of-game reward of ``seat`` ("margin" or "win")."""
    if reward == "margin":
        totals = adapter.totals(state)
        return float(totals[seat] - max(t for s, t in enumerate(totals) if s != seat))
    if reward == "win":
        winners = adapter.winners(state)
        if seat not in winners:
            return -1.0
        return 1.0 if len(winners) == 1 else 0.0
    raise ValueError(f"unknown reward {reward!r}; expected margin or win")


class SushiEnv(gym.Env[np.ndarray, np.int64]):
    """One learning ``seat`` plays ``game`` against bots named by ``opponents``.

    Game options (``pass_both_ways``, ``soy_sauce``, ``dummy``... for Sushi Go!, ``dice`` for Sushi
    Roll) are passed as keywords. The core game is ``core`` (``None`` before the first ``reset``).

    :raises ValueError: for a bad seat, reward, encoding or opponent (unknown bot or option).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

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
        if not 0 <= seat < players:
            raise ValueError(f"there is no seat {seat} in a {players}-player game")
        if reward not in ("margin", "win"):
            raise ValueError(f"unknown reward {reward!r}; expected margin or win")
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(f"unknown illegal_action {illegal_action!r}; expected terminate or raise")
        self.game = game
        self.players = players
        self.seat = seat
        self.reward_kind: Reward = reward
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.opponent_seats = [s for s in range(players) if s != seat]
        self.opponent_specs = opponent_specs(opponents, players - 1, opponent_options)
        self.opponent_names = [name for name, _ in self.opponent_specs]
        check_specs(self.opponent_specs, game)
        self.observation_space = spaces.Box(
            self.adapter.obs_low, self.adapter.obs_high, shape=(self.adapter.obs_size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.adapter.action_size)
        self.core: Any = None
        self.bots: dict[int, Any] = {}
        self._done = True

    # ---------------------------------------------------------------- gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deals a new game (from ``seed`` when given) and plays the bots up to the seat's first decision."""
        super().reset(seed=seed)
        self.core = self.adapter.new_state(int(self.np_random.integers(1 << 31)))
        self.bots = make_opponents(
            self.opponent_specs, self.opponent_seats, self.game, self.players, self.np_random
        )
        self._done = False
        self._advance()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Plays the seat's action (a dense code), then the bots, up to the seat's next decision.

        :raises IllegalActionError: for an illegal action when ``illegal_action="raise"``.
        :raises RuntimeError: when called after the episode ended.
        """
        if self.core is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode is over; call reset()")
        code = int(action)
        mask = self.adapter.mask(self.core, self.seat)
        if not (0 <= code < len(mask)) or not mask[code]:
            if self.illegal_action == "raise":
                raise IllegalActionError(
                    f"action {code} is not legal for seat {self.seat} now", seat=self.seat
                )
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), self.illegal_reward, True, False, info
        state = self.core
        others = [s for s in state.to_act() if s != self.seat] if self.adapter.is_simultaneous() else []
        choices = bot_actions(state, self.bots, others)
        state.submit(self.seat, self.adapter.decode(code))
        for s, a in choices:
            state.submit(s, a)
        self._advance()
        reward = 0.0
        if state.is_over():
            self._done = True
            reward = final_reward(self.adapter, state, self.seat, self.reward_kind)
        return self._obs(), reward, self._done, False, self._info()

    def render(self) -> str | None:
        """Returns the seat's observation as JSON text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi" or self.core is None:
            return None
        return json.dumps(self.core.observe(self.seat).to_json(), default=str)

    def action_masks(self) -> np.ndarray:
        """Returns the boolean mask of legal actions (the sb3-contrib ``MaskablePPO`` convention).

        Through ``gymnasium.make``'s wrappers call ``env.get_wrapper_attr("action_masks")()``, which is
        how sb3-contrib finds it.

        :raises RuntimeError: before the first ``reset()``, when there is no game to mask.
        """
        if self.core is None:
            raise RuntimeError("action_masks() needs a game: call reset() first")
        return self.adapter.mask(self.core, self.seat).astype(bool)

    # ---------------------------------------------------------------- internals

    def _advance(self) -> None:
        state = self.core
        while not state.is_over() and self.seat not in state.to_act():
            for s, a in bot_actions(state, self.bots, state.to_act()):
                state.submit(s, a)
        if state.is_over():
            self._done = True

    def _obs(self) -> np.ndarray:
        return self.adapter.encode(self.core, self.seat)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.adapter.mask(self.core, self.seat)}
        if self.core.is_over():
            info["totals"] = self.adapter.totals(self.core)
            info["winners"] = self.adapter.winners(self.core)
        return info


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
