"""Research interfaces: Gymnasium, PettingZoo and OpenSpiel adapters over the one core (extra ``sushigo[rl]``).

It needs NumPy and Gymnasium (``pip install 'sushigo[rl]'``; importing it without them raises one
:class:`~sushigo.errors.MissingExtraError` naming the extra). Importing this package registers the Gymnasium ids ``sushigo/SushiGo-v0`` (with a ``vector_entry_point``
on the batch engine for ``gymnasium.make_vec``), ``sushigo/SushiRoll-v0`` and ``sushigo/SushiGoParty-v0`` when Gymnasium is installed (Gymnasium 1.x has no plugin
discovery, so ``import sushigo.envs`` is needed before ``gymnasium.make``, or use the id
``"sushigo.envs:sushigo/SushiGo-v0"``). The PettingZoo and OpenSpiel modules are imported on demand:
:mod:`.pettingzoo_env`, :mod:`.openspiel_game`, and for Party :mod:`.party_pettingzoo`, :mod:`.party_openspiel`.
"""

from __future__ import annotations

from ..errors import require

# One clear error naming the extra, instead of a bare ModuleNotFoundError from deep inside.
require("numpy", "rl", "sushigo.envs")
require("gymnasium", "rl", "sushigo.envs")

from .adapters import GameAdapter, SushiGoAdapter, SushiRollAdapter, make_adapter  # noqa: E402

ENV_IDS = ("sushigo/SushiGo-v0", "sushigo/SushiRoll-v0", "sushigo/SushiGoParty-v0")


def register_envs() -> None:
    """Registers the Gymnasium ids (idempotent)."""
    import gymnasium
    if "sushigo/SushiGo-v0" not in gymnasium.registry:
        gymnasium.register(
            id="sushigo/SushiGo-v0",
            entry_point="sushigo.envs.gym_env:SushiGoEnv",
            vector_entry_point="sushigo.envs.vector_env:SushiGoVectorEnv",
        )
    if "sushigo/SushiRoll-v0" not in gymnasium.registry:
        gymnasium.register(id="sushigo/SushiRoll-v0", entry_point="sushigo.envs.gym_env:SushiRollEnv")
    if "sushigo/SushiGoParty-v0" not in gymnasium.registry:
        gymnasium.register(id="sushigo/SushiGoParty-v0", entry_point="sushigo.envs.party_gym:PartyEnv")


register_envs()

__all__ = ["ENV_IDS", "GameAdapter", "SushiGoAdapter", "SushiRollAdapter", "make_adapter", "register_envs"]
