"""PettingZoo environments for Sushi Go Party!: AEC and Parallel, with ``state()`` for centralised critics.

They are :mod:`.pettingzoo_env`'s one AEC and Parallel environment with the game set (and ``menu`` as
the second argument): ``pettingzoo_env.aec_env("sushi-go-party", 4, menu="master_menu")`` is the same.

Agents are ``"player_0"`` … ``"player_{n-1}"``. Each observes ``{"observation": vector, "action_mask":
int8 mask}`` from its own seat's observation only (:mod:`.party_encoding`); actions are the Party
codes. Rewards are 0 until the end, then ``"margin"`` or ``"win"`` as in :mod:`.pettingzoo_env`.

* :class:`PartyAECEnv` asks every agent in seat order, one cycle per Parallel step: in the choose
  phase every agent's secret pick (each stays hidden until the turn resolves); in the resolve phase
  the decider's decision (chopsticks' second card, a spoon's request or a victim's variant, a menu's
  pick, a takeout box's flips card by card) while the others play the no-op. PettingZoo's
  ``aec_to_parallel`` turns it into the Parallel environment.
* :class:`PartyParallelEnv`: a step takes one action per live agent; the agents that owe a decision
  (every one in the choose phase, the decider in the resolve phase) have their legal codes, the others
  a mask with the no-op alone (``env.noop``, the last code), and their actions are ignored.
* ``normalized=True`` gives the normalised observation vector (:func:`.party_encoding.observation_scale`).
* ``state()`` is :meth:`.party_encoding.PartyGame.encode_state` in ``state_space``: it holds every
  hidden card, for critics only.

An illegal action ends the game (``illegal_action="terminate"``: the offender gets ``illegal_reward``,
its info ``"illegal_action": True``) or raises :class:`~sushigo.errors.IllegalActionError` (``"raise"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ..errors import require

require("pettingzoo", "rl", "sushigo.envs.party_pettingzoo")

from .party_encoding import PartyGame  # noqa: E402
from .pettingzoo_env import SushiAECEnv, SushiParallelEnv  # noqa: E402

GAME = PartyGame.game


class PartyAECEnv(SushiAECEnv):
    """:class:`.pettingzoo_env.SushiAECEnv` for Sushi Go Party! on ``menu`` (options as keywords):
    ``PartyAECEnv(players, menu, reward, render_mode, illegal_action, illegal_reward, **options)``."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "sushigo_party_aec_v0",
        "is_parallelizable": True,
    }

    def __init__(
        self, players: int = 4, menu: str | Sequence[str] = "sushi_go", *args: Any, **kwargs: Any
    ) -> None:
        super().__init__(GAME, players, *args, menu=menu, **kwargs)


class PartyParallelEnv(SushiParallelEnv):
    """:class:`.pettingzoo_env.SushiParallelEnv` for Sushi Go Party! (arguments as :class:`PartyAECEnv`'s)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "sushigo_party_parallel_v0"}

    def __init__(
        self, players: int = 4, menu: str | Sequence[str] = "sushi_go", *args: Any, **kwargs: Any
    ) -> None:
        super().__init__(GAME, players, *args, menu=menu, **kwargs)


def aec_env(players: int = 4, menu: str | Sequence[str] = "sushi_go", **kwargs: Any) -> PartyAECEnv:
    """Returns a :class:`PartyAECEnv` (PettingZoo's ``env()`` convention)."""
    return PartyAECEnv(players, menu, **kwargs)


def parallel_env(players: int = 4, menu: str | Sequence[str] = "sushi_go", **kwargs: Any) -> PartyParallelEnv:
    """Returns a :class:`PartyParallelEnv` (PettingZoo's ``parallel_env()`` convention)."""
    return PartyParallelEnv(players, menu, **kwargs)
