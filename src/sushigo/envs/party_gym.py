"""Gymnasium environment for Sushi Go Party!: one learning seat against bots.

``gymnasium.make("sushigo/SushiGoParty-v0", players=6, menu="master_menu", opponents="random")``
(after ``import sushigo.envs``, which registers the id).

* Observation: a ``Box`` vector from the learning seat's observation only, the menu included
  (:mod:`.party_encoding`, every slot documented there and in docs/environments.md);
  ``normalized=True`` divides each slot by :func:`.party_encoding.observation_scale`.
* Action: ``Discrete`` over the Party codes of :mod:`.party_encoding`: picks with a special order's
  target and declared chopsticks/spoon bonus actions, extra cards (chopsticks' second card, a menu's
  pick, a spoon's card), a spoon's request, a spoon victim's variant, and a takeout box's flips one card
  at a time. ``info["action_mask"]`` and :meth:`PartyEnv.action_masks` (reached through wrappers with
  ``env.get_wrapper_attr("action_masks")``, as sb3-contrib does) mark exactly the legal codes.
* Opponents: any bot by name with its options (:mod:`.opponents`), made for ``game="sushi-go-party"``.
* Reward and illegal actions as for ``sushigo/SushiGo-v0`` (:mod:`.gym_env`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..errors import IllegalActionError
from .adapters import GameAdapter
from .gym_env import Reward, final_reward
from .opponents import OpponentSpec, bot_actions, check_specs, make_opponents, opponent_specs
from .party_encoding import (
    NORM_HIGH,
    NORM_LOW,
    OBS_HIGH,
    OBS_LOW,
    PartyGame,
    codec_for,
    new_party_game,
    obs_size,
)

GAME = "sushi-go-party"


class PartyEnv(gym.Env[np.ndarray, np.int64]):
    """One learning ``seat`` plays Sushi Go Party! on ``menu`` against bots named by ``opponents``.

    Game options (rules.md §3.10: ``max_bonus_per_turn``, ``pass_both_ways``, ...) are keywords. The
    wrapped game is ``game`` (a :class:`.party_encoding.PartyGame`; its core is ``core``), ``None``
    before the first ``reset``.

    :raises ValueError: for a bad seat, reward, opponent, or (from the core) menu or player count.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        players: int = 4,
        menu: str | Sequence[str] = "sushi_go",
        opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
        seat: int = 0,
        reward: Reward = "margin",
        illegal_action: Literal["terminate", "raise"] = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        *,
        opponent_options: dict[str, Any] | None = None,
        normalized: bool = False,
        **options: Any,
    ) -> None:
        from ..party.options import PartyConfig

        PartyConfig.build(players, menu, options)  # a bad menu, count or option fails here, not in reset
        if not 0 <= seat < players:
            raise ValueError(f"there is no seat {seat} in a {players}-player game")
        if reward not in ("margin", "win"):
            raise ValueError(f"unknown reward {reward!r}; expected margin or win")
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(f"unknown illegal_action {illegal_action!r}; expected terminate or raise")
        self.players = players
        self.menu = menu if isinstance(menu, str) else list(menu)
        self.options = dict(options)
        self.codec = codec_for(self.options)
        self.normalized = bool(normalized)
        self.seat = seat
        self.reward_kind: Reward = reward
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.opponent_seats = [s for s in range(players) if s != seat]
        self.opponent_specs = opponent_specs(opponents, players - 1, opponent_options)
        self.opponent_names = [name for name, _ in self.opponent_specs]
        check_specs(self.opponent_specs, GAME)
        self._totals = GameAdapter(players)
        low, high = (NORM_LOW, NORM_HIGH) if self.normalized else (OBS_LOW, OBS_HIGH)
        self.observation_space = spaces.Box(low, high, shape=(obs_size(players),), dtype=np.float32)
        self.action_space = spaces.Discrete(self.codec.size)
        self.game: PartyGame | None = None
        self.bots: dict[int, Any] = {}
        self._done = True

    @property
    def core(self) -> Any:
        """The core :class:`~sushigo.party.PartyState` (``None`` before ``reset``)."""
        return None if self.game is None else self.game.core

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deals a new game (from ``seed`` when given) and plays the bots up to the seat's first decision."""
        super().reset(seed=seed)
        self.game = new_party_game(
            self.players,
            int(self.np_random.integers(1 << 31)),
            self.codec,
            self.menu,
            self.options,
            normalized=self.normalized,
        )
        self.bots = make_opponents(self.opponent_specs, self.opponent_seats, GAME, self.players, self.np_random)
        self._done = False
        self._advance()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Plays the seat's code, then the bots, up to the seat's next decision.

        :raises IllegalActionError: for an illegal code when ``illegal_action="raise"``.
        :raises RuntimeError: before ``reset()`` or after the episode ended.
        """
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode is over; call reset()")
        code = int(action)
        if code not in game.legal_codes(self.seat):
            if self.illegal_action == "raise":
                raise IllegalActionError(f"action {code} is not legal for seat {self.seat} now", seat=self.seat)
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), self.illegal_reward, True, False, info
        core = game.core
        # the other secret picks are chosen before this one is submitted: no bot can see it
        others = [s for s in core.to_act() if s != self.seat] if core.phase == "choose" else []
        choices = bot_actions(core, self.bots, others)
        game.play_code(self.seat, code)
        for s, a in choices:
            game.submit(s, a)
        self._advance()
        reward = 0.0
        if core.is_over():
            self._done = True
            reward = final_reward(self._totals, core, self.seat, self.reward_kind)
        return self._obs(), reward, self._done, False, self._info()

    def render(self) -> str | None:
        """Returns the seat's observation as JSON text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        return json.dumps(self.game.core.observe(self.seat).to_json(), default=str)

    def action_masks(self) -> np.ndarray:
        """Returns the boolean mask of legal codes (sb3-contrib's ``MaskablePPO`` convention).

        :raises RuntimeError: before the first ``reset()``.
        """
        if self.game is None:
            raise RuntimeError("action_masks() needs a game: call reset() first")
        return self.game.mask(self.seat).astype(bool)

    def _advance(self) -> None:
        game = self.game
        assert game is not None
        core = game.core
        while not core.is_over() and self.seat not in core.to_act():
            for s, a in bot_actions(core, self.bots, core.to_act()):
                game.submit(s, a)
        if core.is_over():
            self._done = True

    def _obs(self) -> np.ndarray:
        assert self.game is not None
        return self.game.observation(self.seat)

    def _info(self) -> dict[str, Any]:
        assert self.game is not None
        info: dict[str, Any] = {"action_mask": self.game.mask(self.seat)}
        if self.game.core.is_over():
            info["totals"] = self._totals.totals(self.game.core)
            info["winners"] = self._totals.winners(self.game.core)
        return info
