"""Gymnasium environment for Sushi Go Party!: one learning seat against bots (the one
:class:`.gym_env.SushiEnv`, with the game set and ``menu`` as its second argument).

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
from typing import Any

from .gym_env import SushiEnv
from .opponents import OpponentSpec
from .party_encoding import PartyCodec, PartyGame

GAME = PartyGame.game


class PartyEnv(SushiEnv):
    """``sushigo/SushiGoParty-v0``: :class:`.gym_env.SushiEnv` with ``game="sushi-go-party"``, and
    ``menu`` as the second argument.

    One learning ``seat`` plays Sushi Go Party! on ``menu`` against bots named by ``opponents``; the
    later arguments (``seat``, ``reward``, ``illegal_action``, ``illegal_reward``, ``render_mode``) and
    the keywords are :class:`~.gym_env.SushiEnv`'s; game options (rules.md §3.10:
    ``max_bonus_per_turn``, ``pass_both_ways``, ...) are keywords. The adapter (``adapter``) is a
    :class:`.party_encoding.PartyGame`; the core game is ``core``, ``None`` before the first ``reset``.

    :raises ValueError: for a bad seat, reward, opponent, or (from the core) menu or player count.
    """

    def __init__(
        self,
        players: int = 4,
        menu: str | Sequence[str] = "sushi_go",
        opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
        *args: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(GAME, players, opponents, *args, menu=menu, **kwargs)
        self.menu = menu if isinstance(menu, str) else list(menu)

    @property
    def codec(self) -> PartyCodec:
        """The action codes (:class:`.party_encoding.PartyCodec`)."""
        codec: PartyCodec = self.adapter.codec  # type: ignore[attr-defined]
        return codec
