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

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from gymnasium import spaces

from .adapters import GameAdapter
from .common import OneSeatEnv, Reward
from .opponents import OpponentSpec
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


class PartyEnv(OneSeatEnv):
    """One learning ``seat`` plays Sushi Go Party! on ``menu`` against bots named by ``opponents``.

    Game options (rules.md §3.10: ``max_bonus_per_turn``, ``pass_both_ways``, ...) are keywords. The
    wrapped game is ``game`` (a :class:`.party_encoding.PartyGame`; its core is ``core``), ``None``
    before the first ``reset``.

    :raises ValueError: for a bad seat, reward, opponent, or (from the core) menu or player count.
    """

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
        self._setup_seat(
            GAME, players, opponents, seat, reward, illegal_action, illegal_reward, render_mode, opponent_options
        )
        self.menu = menu if isinstance(menu, str) else list(menu)
        self.options = dict(options)
        self.codec = codec_for(self.options)
        self.normalized = bool(normalized)
        self._totals = self._scorer = GameAdapter(players)
        low, high = (NORM_LOW, NORM_HIGH) if self.normalized else (OBS_LOW, OBS_HIGH)
        self.observation_space = spaces.Box(low, high, shape=(obs_size(players),), dtype=np.float32)
        self.action_space = spaces.Discrete(self.codec.size)
        self.game: PartyGame | None = None

    @property
    def core(self) -> Any:
        """The core :class:`~sushigo.party.PartyState` (``None`` before ``reset``)."""
        return None if self.game is None else self.game.core

    def _live(self) -> PartyGame:
        assert self.game is not None
        return self.game

    def _deal(self, seed: int) -> None:
        self.game = new_party_game(self.players, seed, self.codec, self.menu, self.options, normalized=self.normalized)

    def _legal(self, code: int) -> bool:
        return code in self._live().legal_codes(self.seat)

    def _play(self, code: int) -> None:
        self._live().play_code(self.seat, code)

    def _secret_pickers(self) -> list[int]:
        core = self._live().core
        return [s for s in core.to_act() if s != self.seat] if core.phase == "choose" else []

    def _target(self) -> PartyGame:
        return self._live()

    def _mask(self) -> np.ndarray:
        return self._live().mask(self.seat)

    def _obs(self) -> np.ndarray:
        return self._live().observation(self.seat)
