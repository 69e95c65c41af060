"""Bots and their registry: ``make_bot("random", game=...)`` or ``make_bot("mypkg.mybot:MyBot")``.

A built-in bot is one entry per game it plays, ``REGISTRY[(name, game)] = factory``, added by
:func:`register` in the bot's own module; the modules are listed once, in :data:`BUILTIN_MODULES`
(a test fails when a module of this package registers a bot and is missing from that list). A name
such as ``greedy`` is one class per game, and :func:`make_bot` returns that game's class directly.
A user's bot is loaded from ``module:Class`` and only has to follow the :class:`~.base.Bot` protocol.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import MissingExtraError, SushigoError, for_people, missing_extra
from .base import BaseBot, Bot
from .random_bot import RandomBot
from .registry import BUILTIN_MODULES, REGISTRY, register


class BotError(SushigoError, ValueError):
    """A bot name or module that cannot be loaded."""


#: bot module -> why it could not be loaded (an optional dependency is missing)
UNAVAILABLE: dict[str, MissingExtraError] = {}
_loaded = False


def _load_builtin() -> None:
    # Importing a module of BUILTIN_MODULES registers its bots. A module whose optional dependency is
    # missing is left out and remembered, so that asking for its bot names the extra to install while
    # every other bot keeps working.
    global _loaded
    if _loaded:
        return
    for module in BUILTIN_MODULES:
        if module in UNAVAILABLE:
            continue
        try:
            importlib.import_module(f"{__name__}.{module}")
        except ImportError as exc:
            err = missing_extra(exc, f"the {module} bot")
            if err is None:
                raise
            UNAVAILABLE[module] = err
    _loaded = True


def bot_names(game: str | None = None) -> list[str]:
    """Returns the names of the built-in bots (for ``game``, when given)."""
    _load_builtin()
    return sorted({n for n, g in REGISTRY if game is None or g == game})


def bot_games(name: str) -> list[str]:
    """Returns the games the built-in bot ``name`` plays (empty for an unknown name)."""
    _load_builtin()
    return [g for n, g in REGISTRY if n == name]


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


def _check_options(spec: str, factory: Callable[..., Any], game: str, options: dict[str, Any]) -> None:
    accepted = signature_options(factory)[0]
    if accepted is None:
        return
    unknown = [k for k in options if k not in accepted]
    if unknown:
        known = ", ".join(sorted(accepted)) or "none"
        raise BotError(f"bot {spec!r} has no option {unknown[0]!r} (for {game}); its options: {known}")


def _load_user_factory(spec: str) -> Callable[..., Any]:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise BotError(f"bot {spec!r}: write a built-in name or module:Class")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotError(f"cannot import bot module {module_name!r}: {exc}") from None
    except Exception as exc:  # the user's module itself fails (SyntaxError, ...)
        raise BotError(f"cannot import bot module {module_name!r}: {type(exc).__name__}: {exc}") from None
    factory = getattr(module, attr, None)
    if factory is None:
        raise BotError(f"module {module_name!r} has no bot {attr!r}")
    if inspect.ismodule(factory) or not callable(factory):
        kind = "a module" if inspect.ismodule(factory) else f"a {type(factory).__name__}"
        raise BotError(f"{spec!r} is not a bot class: {attr} in {module_name} is {kind}")
    return factory


def _builtin_factory(spec: str, game: str) -> Callable[..., Any]:
    factory = REGISTRY.get((spec, game))
    if factory is not None:
        return factory
    # before the other games: Sushi Roll's alpha must not hide that Sushi Go!'s alpha misses its extra
    if spec in UNAVAILABLE:
        raise MissingExtraError(UNAVAILABLE[spec].module, UNAVAILABLE[spec].extra, f"bot {spec!r}")
    games = bot_games(spec)
    if games:
        raise BotError(f"bot {spec!r} does not play {game}; it plays {', '.join(games)}")
    raise BotError(f"unknown bot {spec!r}; choose one of {', '.join(bot_names(game))} or module:Class")


def make_bot(spec: str, *, seed: int | None = None, game: str = "sushi-go", **options: Any) -> Any:
    """Creates a bot for ``game`` from a built-in name (``"random"``) or a ``"module:Class"`` path.

    A built-in name is the class registered for ``(name, game)``. Options are checked against the
    constructor's parameters before it is called, so a misspelt ``--bot-option`` is an error naming
    the bot and the option instead of a game played without it. A user class is called with ``seed=``
    and the options; one whose constructor takes no ``seed`` is called without it (it must then be
    reproducible on its own).

    :raises BotError: when the name is unknown, the module cannot be imported, an option is unknown,
        the constructor fails, or the bot does not support ``game``.
    :raises MissingExtraError: when a built-in bot needs an optional dependency that is not installed.
    """
    _load_builtin()
    if ":" in spec:
        factory = _load_user_factory(spec)
        _check_options(spec, factory, game, options)
        kwargs = dict(options)
        if signature_options(factory)[1]:
            kwargs["seed"] = seed
    else:
        factory = _builtin_factory(spec, game)
        _check_options(spec, factory, game, options)
        kwargs = {"seed": seed, **options}
    try:
        bot = factory(**kwargs)
    except SushigoError:
        raise
    except Exception as exc:  # a bad option value, or a bug in the bot's constructor
        raise BotError(f"bot {spec!r} could not be created: {type(exc).__name__}: {exc}") from None
    if not isinstance(bot, Bot):
        raise BotError(
            f"{spec!r} is not a bot: it needs a name, reset(seat, game, players) and act(observation, legal)"
        )
    return bot


def crashed_seat(exc: BaseException, bots: Sequence[Any]) -> int | None:
    """Returns the seat whose bot raised ``exc`` (read from the traceback), or ``None``.

    Reading the traceback after the fact costs nothing while games run, unlike wrapping every bot.
    """
    tb = exc.__traceback__
    while tb is not None:
        owner = tb.tb_frame.f_locals.get("self")
        for seat, bot in enumerate(bots):
            if owner is bot:
                return seat
        tb = tb.tb_next
    return None


def describe_crash(exc: BaseException, bots: Sequence[Any], specs: Sequence[str]) -> str:
    """Says who raised ``exc`` during a game, for one line: ``bot 'x' in seat 2 raised KeyError: ...``.

    Seats are numbered from 1, as people read them.
    """
    what = f"{type(exc).__name__}: {for_people(str(exc))}"
    seat = crashed_seat(exc, bots)
    if seat is None:
        return what
    return f"bot {specs[seat]!r} in seat {seat + 1} raised {what}"


__all__ = [
    "BUILTIN_MODULES",
    "REGISTRY",
    "UNAVAILABLE",
    "BaseBot",
    "Bot",
    "BotError",
    "RandomBot",
    "bot_games",
    "bot_names",
    "crashed_seat",
    "describe_crash",
    "make_bot",
    "register",
    "signature_options",
]
