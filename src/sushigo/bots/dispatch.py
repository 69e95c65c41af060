"""One bot name, one implementation per game: :class:`PerGameBot` picks it when a game starts.

The registry calls a factory with ``seed`` and options only, so a name such as ``greedy`` that plays
both Sushi Go! and Sushi Roll is a :class:`PerGameBot`: on :meth:`PerGameBot.reset` it builds the
implementation for that game and then forwards every :meth:`act` to it.
"""

from __future__ import annotations

import inspect
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
            unknown = unknown_options(factory, options)
            if unknown:
                self.errors[game] = f"it has no option {unknown[0]!r} there"
                continue
            self.instances[game] = factory(seed=seed, **options)
        if not self.instances:
            from . import BotError

            raise BotError(f"bot {name!r}: {next(iter(self.errors.values()), 'no implementation')}")
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
            game = (
                "sushi-roll"
                if hasattr(observation, "belts")
                else "sushi-go-party"
                if hasattr(observation, "menu_drawn")
                else "sushi-go"
            )
            self.reset(observation.seat if observation.seat is not None else 0, game, observation.players)
        return self.inner.act(observation, legal)


#: factory -> what its signature accepts; reading a signature costs more than a random game's turn, and
#: ``simulate`` makes every seat's bot anew for each game
_SIGNATURES: dict[Any, tuple[frozenset[str] | None, bool]] = {}


def signature_options(factory: Callable[..., Any]) -> tuple[frozenset[str] | None, bool]:
    """Returns the keyword options ``factory`` accepts besides ``seed`` (``None``: any) and whether it
    takes ``seed``.

    Reading the signature, rather than calling and catching ``TypeError``, tells a misspelt option
    apart from a bug inside the constructor.
    """
    try:
        return _SIGNATURES[factory]
    except KeyError:
        found = _read_signature(factory)
        _SIGNATURES[factory] = found
        return found
    except TypeError:  # an unhashable factory: read it every time
        return _read_signature(factory)


def _read_signature(factory: Callable[..., Any]) -> tuple[frozenset[str] | None, bool]:
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # no signature to read (a C type): accept what it is given
        return None, True
    names: set[str] = set()
    takes_seed = False
    for p in params:
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            return None, True
        if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY):
            if p.name == "seed":
                takes_seed = True
            else:
                names.add(p.name)
    return frozenset(names), takes_seed


def unknown_options(factory: Callable[..., Any], options: dict[str, Any]) -> list[str]:
    """Returns the names in ``options`` that ``factory`` does not accept."""
    accepted = signature_options(factory)[0]
    return [] if accepted is None else [k for k in options if k not in accepted]


def roll_implementation(name: str) -> Callable[..., Any] | None:
    """Returns the Sushi Roll bot class called ``name`` from :mod:`.roll_bots`, if it is available."""
    import importlib

    try:
        roll_bots = importlib.import_module(f"{__package__}.roll_bots")
    except ImportError:  # pragma: no cover - Sushi Roll not available
        return None
    factory: Callable[..., Any] | None = roll_bots.BOTS.get(name)
    return factory


#: bot name -> game -> implementation, for games added to a two-game bot (Sushi Go Party!)
MORE_GAMES: dict[str, dict[str, Callable[..., Any]]] = {}


def register_game_implementation(name: str, game: str, factory: Callable[..., Any]) -> None:
    """Adds ``game``'s implementation to the bot ``name`` registered by :func:`register_per_game`, so a
    further game joins the name without each game's module knowing the others."""
    from . import REGISTRY

    MORE_GAMES.setdefault(name, {})[game] = factory
    if name in REGISTRY:  # otherwise register_per_game adds the game when it registers the name
        base, games = REGISTRY[name]
        if game not in games:
            REGISTRY[name] = (base, (*games, game))


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
        impls.update(MORE_GAMES.get(name, {}))
        return PerGameBot(name, impls, seed=seed, **options)

    def options_for(game: str) -> frozenset[str] | None:
        if game in MORE_GAMES.get(name, {}):
            return signature_options(MORE_GAMES[name][game])[0]
        impl = (
            sushi_go
            if game == "sushi-go"
            else next((r for r in map(roll_implementation, roll_names or (name,)) if r is not None), None)
        )
        return frozenset() if impl is None else signature_options(impl)[0]

    factory.options_for = options_for  # type: ignore[attr-defined]
    factory.__doc__ = f"Creates the registered ``{name}`` bot."
    register(name, factory, ("sushi-go", "sushi-roll", *MORE_GAMES.get(name, {})))
