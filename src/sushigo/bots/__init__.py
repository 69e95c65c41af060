"""Bots and their registry: ``make_bot("random")`` or ``make_bot("mypkg.mybot:MyBot")``.

Each built-in bot is registered here by name with the games it plays; a user's bot is loaded from
``module:Class`` and only has to follow the :class:`~.base.Bot` protocol.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ..errors import SushigoError
from .base import BaseBot, Bot
from .random_bot import RandomBot

#: name -> (factory taking ``seed`` and keyword options, games it supports)
REGISTRY: dict[str, tuple[Callable[..., Any], tuple[str, ...]]] = {
    "random": (RandomBot, ("sushi-go", "sushi-roll")),
}


class BotError(SushigoError, ValueError):
    """A bot name or module that cannot be loaded."""


def register(name: str, factory: Callable[..., Any], games: tuple[str, ...]) -> None:
    """Adds a built-in bot to the registry."""
    REGISTRY[name] = (factory, games)


def _load_builtin() -> None:
    # Built-in bots beyond ``random`` live in their own modules; importing them registers them.
    for module in ("greedy", "heuristic", "mcts", "roll_bots"):
        try:
            importlib.import_module(f"{__name__}.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{module}":
                raise


def bot_names(game: str | None = None) -> list[str]:
    """Returns the names of the built-in bots (for ``game``, when given)."""
    _load_builtin()
    return sorted(n for n, (_, games) in REGISTRY.items() if game is None or game in games)


def make_bot(spec: str, *, seed: int | None = None, game: str = "sushi-go", **options: Any) -> Any:
    """Creates a bot from a built-in name (``"random"``) or a ``"module:Class"`` path.

    :raises BotError: when the name is unknown, the module cannot be imported, or the bot does not
        support ``game``.
    """
    _load_builtin()
    if ":" in spec:
        module_name, _, attr = spec.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise BotError(f"cannot import bot module {module_name!r}: {exc}") from None
        factory = getattr(module, attr, None)
        if factory is None:
            raise BotError(f"module {module_name!r} has no bot {attr!r}")
        try:
            bot = factory(seed=seed, **options)
        except TypeError:
            bot = factory()
    else:
        if spec not in REGISTRY:
            raise BotError(f"unknown bot {spec!r}; choose one of {', '.join(bot_names())} or module:Class")
        factory, games = REGISTRY[spec]
        if game not in games:
            raise BotError(f"bot {spec!r} does not play {game}; it plays {', '.join(games)}")
        bot = factory(seed=seed, **options)
    if not isinstance(bot, Bot):
        raise BotError(
            f"{spec!r} is not a bot: it needs a name, reset(seat, game, players) and act(observation, legal)"
        )
    return bot


__all__ = ["REGISTRY", "BaseBot", "Bot", "BotError", "RandomBot", "bot_names", "make_bot", "register"]
