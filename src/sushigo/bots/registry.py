"""The table of built-in bots: ``REGISTRY[(name, game)] = factory``, filled by :func:`register`.

Each bot module registers its classes, one entry per game a name plays; the modules are listed once,
in :data:`BUILTIN_MODULES`, and :mod:`sushigo.bots` imports them on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

#: (name, game) -> factory taking ``seed`` and keyword options
REGISTRY: dict[tuple[str, str], Callable[..., Any]] = {}

#: the modules of this package that register the built-in bots, imported on first use
BUILTIN_MODULES = (
    "random_bot",
    "greedy",
    "heuristic",
    "mcts",
    "roll_bots",
    "roll_neural",
    "party",
    "neural",
    "alpha",
    "roll_alpha",
)


def register(name: str, game: str, factory: F) -> F:
    """Adds the built-in bot ``name`` for ``game``: :func:`make_bot` calls ``factory(seed=..., **options)``.

    Call it in the bot's module, once per game the name plays (the module must be listed in
    :data:`BUILTIN_MODULES`). Returns ``factory``.

    :raises ValueError: when ``(name, game)`` is already registered to another factory.
    """
    old = REGISTRY.get((name, game))
    if old is not None and old is not factory:
        raise ValueError(f"bot {name!r} is already registered for {game}")
    REGISTRY[(name, game)] = factory
    return factory
