"""PettingZoo environments for every game: one AEC environment and one Parallel environment.

The game is chosen once, by name, through its :class:`~.adapters.GameAdapter`; Sushi Go Party!'s
:mod:`.party_pettingzoo` names are these classes with the game set.

Agents are ``"player_0"`` … ``"player_{n-1}"`` (the dummy is not an agent). Each agent observes
``{"observation": vector, "action_mask": int8 mask}`` built from its own seat's observation only
(:mod:`.encoding`, :mod:`.roll_encoding`, :mod:`.party_encoding`); actions are the game's codes.
Rewards are 0 until the end, then ``"margin"`` (own total minus the best other total) or ``"win"``
(+1 sole win, 0 shared, -1 loss).

* :class:`SushiParallelEnv` fits Sushi Go!'s simultaneous picks: every agent acts on every step. In
  Sushi Roll (and Party) the action space ends with a no-op code (``env.noop``): an agent that does not
  act on a step has a mask with the no-op alone, and its action is ignored; masks are never all zero.
* ``state()`` returns the documented global state (every hidden card included, for centralised
  critics: :func:`.encoding.encode_state`, :func:`.roll_encoding.encode_state`,
  :meth:`.party_encoding.PartyGame.encode_state`) in ``state_space``;
  the core game is the attribute ``core``.
* ``actions="compact"`` uses the compact action codes, ``normalized=True`` the normalised vector.
* :class:`SushiAECEnv` asks one agent at a time. Sushi Go! picks are collected secretly and the turn
  resolves after the last agent's pick (no agent ever sees another's pending pick). In Sushi Roll and
  Party it asks every agent in seat order, one cycle per Parallel step (waiting agents play the no-op;
  the game ends at a cycle's end), so PettingZoo's ``aec_to_parallel`` works on every game.

An illegal action ends the game as PettingZoo's classic environments do (``illegal_action="terminate"``,
the default): the offending agent gets ``illegal_reward`` (-1), the others 0, and its info holds
``"illegal_action": True``. With ``illegal_action="raise"`` it raises
:class:`~sushigo.errors.IllegalActionError` instead.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..errors import require

require("pettingzoo", "rl", "sushigo.envs.pettingzoo_env")

from .pettingzoo_common import AECBase, ParallelBase  # noqa: E402


class SushiAECEnv(AECBase):
    """Agent-environment-cycle environment for ``game`` ("sushi-go", "sushi-roll" or "sushi-go-party").

    Arguments: ``game``, ``players``, ``reward``, ``render_mode``, ``illegal_action``,
    ``illegal_reward``, then keywords: ``actions``, ``normalized`` and the game's options (Party's
    ``menu`` among them). ``adapter`` is the game's :class:`~.adapters.GameAdapter`.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "sushigo_aec_v0",
        "is_parallelizable": True,
    }


class SushiParallelEnv(ParallelBase):
    """Parallel environment for ``game``: a step takes one action per live agent (arguments as
    :class:`SushiAECEnv`'s)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "sushigo_parallel_v0"}


def aec_env(game: str = "sushi-go", players: int = 4, **kwargs: Any) -> SushiAECEnv:
    """Returns a :class:`SushiAECEnv` (PettingZoo's ``env()`` convention)."""
    return SushiAECEnv(game, players, **kwargs)


def parallel_env(game: str = "sushi-go", players: int = 4, **kwargs: Any) -> SushiParallelEnv:
    """Returns a :class:`SushiParallelEnv` (PettingZoo's ``parallel_env()`` convention)."""
    return SushiParallelEnv(game, players, **kwargs)
