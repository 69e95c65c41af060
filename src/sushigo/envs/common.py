"""What the one-seat Gymnasium environments of every game share (:mod:`.gym_env`, :mod:`.party_gym`).

The games differ in how a state is dealt, what is legal and how a code is played; everything around
that (argument checks, bots playing up to the seat's turn, the illegal-action rule, rewards, infos,
masks, rendering) is the same contract, so it lives here once and the two environments cannot drift
apart. A game plugs in through the hooks of :class:`OneSeatEnv`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

import gymnasium as gym
import numpy as np

from ..errors import IllegalActionError
from .adapters import GameAdapter
from .opponents import OpponentSpec, bot_actions, check_specs, make_opponents, opponent_specs

Reward = Literal["margin", "win"]


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


def check_settings(reward: str, illegal_action: str, *, players: int = 0, seat: int | None = None) -> None:
    """Refuses a bad seat (when given), reward or illegal-action rule, in that order, at construction
    rather than at the first ``reset``.

    :raises ValueError: naming the bad value and what is expected.
    """
    if seat is not None and not 0 <= seat < players:
        raise ValueError(f"there is no seat {seat} in a {players}-player game")
    if reward not in ("margin", "win"):
        raise ValueError(f"unknown reward {reward!r}; expected margin or win")
    if illegal_action not in ("terminate", "raise"):
        raise ValueError(f"unknown illegal_action {illegal_action!r}; expected terminate or raise")


class OneSeatEnv(gym.Env[np.ndarray, np.int64]):
    """One learning ``seat`` against bots; a game supplies the hooks below.

    ``core`` is the core game state (``None`` before the first ``reset``); ``_scorer`` gives its totals
    and winners.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    core: Any
    _scorer: GameAdapter

    def _setup_seat(
        self,
        bot_game: str,
        players: int,
        opponents: OpponentSpec | Sequence[OpponentSpec],
        seat: int,
        reward: Reward,
        illegal_action: str,
        illegal_reward: float,
        render_mode: str | None,
        opponent_options: dict[str, Any] | None,
    ) -> None:
        """Checks and stores the settings every game has (the game's own are checked before)."""
        check_settings(reward, illegal_action, players=players, seat=seat)
        self._bot_game = bot_game
        self.players = players
        self.seat = seat
        self.reward_kind: Reward = reward
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.opponent_seats = [s for s in range(players) if s != seat]
        self.opponent_specs = opponent_specs(opponents, players - 1, opponent_options)
        self.opponent_names = [name for name, _ in self.opponent_specs]
        check_specs(self.opponent_specs, bot_game)
        self.bots: dict[int, Any] = {}
        self._done = True

    # ---------------------------------------------------------------- hooks

    def _deal(self, seed: int) -> None:
        """Starts a new game from ``seed`` (so that ``core`` is its state)."""
        raise NotImplementedError

    def _legal(self, code: int) -> bool:
        """Whether the seat may play ``code`` now (any int, out-of-range ones included)."""
        raise NotImplementedError

    def _play(self, code: int) -> None:
        """Plays the seat's legal ``code``."""
        raise NotImplementedError

    def _secret_pickers(self) -> list[int]:
        """The other seats whose secret picks are chosen together with the seat's (before it is
        submitted, so that no bot sees it); empty when the seat decides alone."""
        raise NotImplementedError

    def _target(self) -> Any:
        """What the bots' actions are submitted to (``submit(seat, action)``)."""
        return self.core

    def _mask(self) -> np.ndarray:
        """The seat's int8 mask of legal codes."""
        raise NotImplementedError

    def _obs(self) -> np.ndarray:
        raise NotImplementedError

    # ---------------------------------------------------------------- gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deals a new game (from ``seed`` when given) and plays the bots up to the seat's first decision."""
        super().reset(seed=seed)
        self._deal(int(self.np_random.integers(1 << 31)))
        self.bots = make_opponents(
            self.opponent_specs, self.opponent_seats, self._bot_game, self.players, self.np_random
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
        if not self._legal(code):
            if self.illegal_action == "raise":
                raise IllegalActionError(f"action {code} is not legal for seat {self.seat} now", seat=self.seat)
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), self.illegal_reward, True, False, info
        state = self.core
        choices = bot_actions(state, self.bots, self._secret_pickers())
        self._play(code)
        target = self._target()
        for s, a in choices:
            target.submit(s, a)
        self._advance()
        reward = 0.0
        if state.is_over():
            self._done = True
            reward = final_reward(self._scorer, state, self.seat, self.reward_kind)
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
        return self._mask().astype(bool)

    # ---------------------------------------------------------------- internals

    def _advance(self) -> None:
        state, target = self.core, self._target()
        while not state.is_over() and self.seat not in state.to_act():
            for s, a in bot_actions(state, self.bots, state.to_act()):
                target.submit(s, a)
        if state.is_over():
            self._done = True

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask()}
        if self.core.is_over():
            info["totals"] = self._scorer.totals(self.core)
            info["winners"] = self._scorer.winners(self.core)
        return info
