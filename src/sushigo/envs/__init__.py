"""Research interfaces: Gymnasium, PettingZoo and OpenSpiel adapters over the one core (extra ``sushigo[rl]``).

Every game plugs in through one :class:`~.adapters.GameAdapter`, chosen by name from
:data:`~.adapters.ADAPTERS`; there is one Gymnasium environment (:class:`.gym_env.SushiEnv`) and one
PettingZoo AEC and Parallel environment (:mod:`.pettingzoo_env`) for all three games.

It needs NumPy and Gymnasium (``pip install 'sushigo[rl]'``; importing it without them raises one
:class:`~sushigo.errors.MissingExtraError` naming the extra). Importing this package registers the Gymnasium ids ``sushigo/SushiGo-v0`` (with a ``vector_entry_point``
on the batch engine for ``gymnasium.make_vec``), ``sushigo/SushiRoll-v0`` and ``sushigo/SushiGoParty-v0`` when Gymnasium is installed (Gymnasium 1.x has no plugin
discovery, so ``import sushigo.envs`` is needed before ``gymnasium.make``, or use the id
``"sushigo.envs:sushigo/SushiGo-v0"``). The PettingZoo and OpenSpiel modules are imported on demand:
:mod:`.pettingzoo_env`, :mod:`.openspiel_game`, and for Party :mod:`.party_pettingzoo` (the same classes with the
game set), :mod:`.party_openspiel`.
"""

from __future__ import annotations

from ..errors import require

# One clear error naming the extra, instead of a bare ModuleNotFoundError from deep inside.
require("numpy", "rl", "sushigo.envs")
require("gymnasium", "rl", "sushigo.envs")

from .adapters import ADAPTERS, GameAdapter, SushiGoAdapter, SushiRollAdapter, make_adapter  # noqa: E402

#: the Gymnasium ids: each one's entry point (the one :class:`.gym_env.SushiEnv` with its game set) and,
#: for Sushi Go!, the batch engine's vectorised environment
_REGISTRATIONS: dict[str, dict[str, str]] = {
    "sushigo/SushiGo-v0": {
        "entry_point": "sushigo.envs.gym_env:SushiGoEnv",
        "vector_entry_point": "sushigo.envs.vector_env:SushiGoVectorEnv",
    },
    "sushigo/SushiRoll-v0": {"entry_point": "sushigo.envs.gym_env:SushiRollEnv"},
    "sushigo/SushiGoParty-v0": {"entry_point": "sushigo.envs.party_gym:PartyEnv"},
}
ENV_IDS = tuple(_REGISTRATIONS)


def register_envs() -> None:
    """Registers the Gymnasium ids (idempotent)."""
    import gymnasium

    for env_id, entry in _REGISTRATIONS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, **entry)  # type: ignore[arg-type]


register_envs()

__all__ = [
    "ADAPTERS",
    "ENV_IDS",
    "GameAdapter",
    "SushiGoAdapter",
    "SushiRollAdapter",
    "make_adapter",
    "register_envs",
]
