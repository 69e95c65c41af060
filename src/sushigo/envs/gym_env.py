"""Gymnasium environment: one learning seat against bots, for every game (one class, :class:`SushiEnv`).

``gymnasium.make("sushigo/SushiGo-v0", players=4, opponents="heuristic")`` (after ``import
sushigo.envs``, which registers the ids ``sushigo/SushiGo-v0``, ``sushigo/SushiRoll-v0`` and
``sushigo/SushiGoParty-v0``; or ``gymnasium.make("sushigo.envs:sushigo/SushiGo-v0")``).

The game is chosen once, by name, through its :class:`~.adapters.GameAdapter`
(:func:`~.adapters.make_adapter`); the environment never asks which game it is.
:class:`SushiGoEnv`, :class:`SushiRollEnv` and :class:`.party_gym.PartyEnv` are the same class with
the game set.

* Observation: a ``Box`` vector built from the learning seat's observation only
  (:mod:`.encoding`, :mod:`.roll_encoding`, :mod:`.party_encoding`); ``normalized=True`` gives the
  normalised vector.
* Action: ``Discrete`` over the game's codes: Sushi Go!'s dense codes, or the compact ones
  (``actions="compact"``), Sushi Roll's ids, Party's codes (a takeout box's flips one card at a time);
  ``info["action_mask"]`` (and :meth:`SushiEnv.action_masks`, which wrappers reach through
  ``env.get_wrapper_attr("action_masks")``, as sb3-contrib does) marks exactly the legal ones
  (chopsticks pairs and the dummy's card included).
* Opponents: any bot by name with its options (:mod:`.opponents`), made for the game.
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
from .adapters import make_adapter
from .common import Reward, check_settings, final_reward
from .opponents import OpponentSpec, bot_actions, check_specs, make_opponents, opponent_specs, spec_name

__all__ = ["OBS_HIGH", "OBS_LOW", "Reward", "SushiEnv", "SushiGoEnv", "SushiRollEnv", "final_reward"]

#: bounds of the raw observation vectors (scores of finished rounds are the largest entries)
OBS_LOW = -100.0
OBS_HIGH = 1000.0


class SushiEnv(gym.Env[np.ndarray, np.int64]):
    """One learning ``seat`` plays ``game`` ("sushi-go", "sushi-roll" or "sushi-go-party") against bots
    named by ``opponents``.

    Game options (``pass_both_ways``, ``soy_sauce``, ``dummy``... for Sushi Go!, ``dice`` for Sushi
    Roll, ``menu``, ``max_bonus_per_turn``... for Party) are passed as keywords. ``adapter`` is the
    game's :class:`~.adapters.GameAdapter`; the core game is ``core`` (``None`` before the first
    ``reset``).

    :raises ValueError: for a bad game, seat, reward, encoding, opponent (unknown bot or option), or
        (from the core) player count, menu or option.
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
        self.game = game
        check_settings(reward, illegal_action, players=players, seat=seat)
        self.players = players
        self.seat = seat
        self.reward_kind: Reward = reward
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.opponent_seats = [s for s in range(players) if s != seat]
        self.opponent_specs = opponent_specs(opponents, players - 1, opponent_options)
        self.opponent_names = [spec_name(name) for name, _ in self.opponent_specs]
        check_specs(self.opponent_specs, game)
        self.bots: dict[int, Any] = {}
        self._done = True
        self.observation_space = spaces.Box(
            self.adapter.obs_low, self.adapter.obs_high, shape=(self.adapter.obs_size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.adapter.action_size)
        self.core: Any = None

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
        """Plays the seat's action (a code of the action space), then the bots, up to the seat's next
        decision.

        :raises IllegalActionError: for an illegal action when ``illegal_action="raise"``.
        :raises RuntimeError: before ``reset()`` or after the episode ended.
        """
        if self.core is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode is over; call reset()")
        code = int(action)
        adapter, state = self.adapter, self.core
        if not adapter.is_legal(state, self.seat, code):
            if self.illegal_action == "raise":
                raise IllegalActionError(f"action {code} is not legal for seat {self.seat} now", seat=self.seat)
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), self.illegal_reward, True, False, info
        # the bots that pick together with the seat choose first, so that none sees its pick
        choices = bot_actions(state, self.bots, adapter.secret_pickers(state, self.seat))
        adapter.play(state, self.seat, code)
        for s, a in choices:
            adapter.submit(state, s, a)
        self._advance()
        reward = 0.0
        if state.is_over():
            self._done = True
            reward = final_reward(adapter, state, self.seat, self.reward_kind)
        return self._obs(), reward, self._done, False, self._info()

    def render(self) -> Any:  # str | None; Gymnasium's own annotation differs between its releases
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
        state, adapter = self.core, self.adapter
        while not state.is_over() and self.seat not in state.to_act():
            for s, a in bot_actions(state, self.bots, state.to_act()):
                adapter.submit(state, s, a)
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
    """``sushigo/SushiGo-v0``: :class:`SushiEnv` with ``game="sushi-go"``."""

    def __init__(
        self, players: int = 4, opponents: OpponentSpec | Sequence[OpponentSpec] = "random", **kwargs: Any
    ) -> None:
        super().__init__("sushi-go", players, opponents, **kwargs)


class SushiRollEnv(SushiEnv):
    """``sushigo/SushiRoll-v0``: :class:`SushiEnv` with ``game="sushi-roll"``."""

    def __init__(
        self, players: int = 4, opponents: OpponentSpec | Sequence[OpponentSpec] = "random", **kwargs: Any
    ) -> None:
        super().__init__("sushi-roll", players, opponents, **kwargs)
