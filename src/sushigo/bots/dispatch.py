"""One bot name, one implementation per game: :class:`PerGameBot` picks it when a game starts.

The registry calls a factory with ``seed`` and options only, so a name such as ``greedy`` that plays
both Sushi Go! and Sushi Roll is a :class:`PerGameBot`: on :meth:`PerGameBot.reset` it builds the
implementation for that game and then forwards every :meth:`act` to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .base import BaseBot


class PerGameBot(BaseBot):
    """Forwards to the implementation registered for the game being played."""

    def __init__(
        self,
        name: str,
        implementations: dict[str, Callable[..., Any]],
        seed: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__(seed)
        self.name = name
        self.options = options
        #: one instance per game, built now so that a bad option fails at once
        self.instances: dict[str, Any] = {}
        self.errors: dict[str, str] = {}
        for game, factory in implementations.items():
            try:
                self.instances[game] = factory(seed=seed, **options)
            except TypeError as exc:
                self.errors[game] = str(exc)
        if not self.instances:
            raise TypeError(f"bot {name!r}: {next(iter(self.errors.values()), 'no implementation')}")
        self.inner: Any = None

    def reset(self, seat: int, game: str, players: int) -> None:
        """Selects and resets the implementation for ``game``.

        :raises ValueError: when the bot does not play ``game`` (or not with the options given).
        """
        super().reset(seat, game, players)
        inner = self.instances.get(game)
        if inner is None:
            why = f" with these options ({self.errors[game]})" if game in self.errors else ""
            raise ValueError(f"bot {self.name!r} does not play {game}{why}")
        self.inner = inner
        inner.reset(seat, game, players)

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns the implementation's choice."""
        if self.inner is None:  # act() without reset(): tell the game from the observation
            game = "sushi-roll" if hasattr(observation, "belts") else "sushi-go"
            self.reset(observation.seat if observation.seat is not None else 0, game, observation.players)
        return self.inner.act(observation, legal)


def roll_implementation(name: str) -> Callable[..., Any] | None:
    """Returns the Sushi Roll bot class called ``name`` from :mod:`.roll_bots`, if it is available."""
    import importlib

    try:
        roll_bots = importlib.import_module(f"{__package__}.roll_bots")
    except ImportError:  # pragma: no cover - Sushi Roll not available
        return None
    factory: Callable[..., Any] | None = roll_bots.BOTS.get(name)
    return factory


def register_per_game(name: str, sushi_go: Callable[..., Any], *roll_names: str) -> None:
    """Registers ``name`` as one bot for both games.

    It plays Sushi Go! with ``sushi_go`` and Sushi Roll with the first available of the Sushi Roll bots
    ``roll_names`` (by default the one called ``name``), so ``--bots greedy`` works in either game.
    """
    from . import register

    def factory(seed: int | None = None, **options: Any) -> PerGameBot:
        impls: dict[str, Any] = {"sushi-go": sushi_go}
        for roll_name in roll_names or (name,):
            roll = roll_implementation(roll_name)
            if roll is not None:
                impls["sushi-roll"] = roll
                break
        return PerGameBot(name, impls, seed=seed, **options)

    factory.__doc__ = f"Creates the registered ``{name}`` bot."
    register(name, factory, ("sushi-go", "sushi-roll"))
