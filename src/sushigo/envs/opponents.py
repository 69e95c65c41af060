"""Bot opponents for the environments, chosen by name (with options) through :func:`sushigo.bots.make_bot`.

An opponent spec is a bot name (``"mcts"``, ``"neural"``, ``"mypkg.mybot:MyBot"``), a pair
``(name, options)``, or a mapping ``{"name": ..., "options": {...}}``. ``opponents`` is one spec for
every opponent seat or one spec per opponent seat; ``opponent_options`` are defaults that every
seat's own options override. A spec is checked once, when the environment is made, so a typo fails
there and not in the middle of training.

A spec may also be an object: a bot instance (anything with ``act(observation, legal)``, and
``reset(seat, game, players)`` if it keeps memory) or a plain function ``fn(observation, legal) ->
action``. An instance given for one seat is that seat's bot, game after game; one instance given for
several seats is deep-copied per seat (seats never share a bot's memory), and the vector environment
plays a deep copy in each of its games unless the bot has ``act_batch``. A function keeps no memory and
is shared.

A bot that offers ``act_batch(observations, legal) -> picks`` (the ``neural`` bot does) is asked for
many games at once by the vector environment; such a bot keeps no memory between moves.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..game import GameState

OpponentSpec = str | tuple[str, Mapping[str, Any]] | Mapping[str, Any] | Any

#: one opponent seat: ``(bot name, options)``, or ``(bot object or function, {})`` for a given one
Spec = tuple[Any, dict[str, Any]]


class FunctionBot:
    """A plain function ``fn(observation, legal) -> action`` as a bot (no memory, so one is shared)."""

    def __init__(self, fn: Callable[[Any, Sequence[Any]], Any]) -> None:
        self.fn = fn
        self.name = getattr(fn, "__name__", type(fn).__name__)

    def reset(self, seat: int, game: str, players: int) -> None:
        """Keeps nothing: a function has no memory."""

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns the function's choice."""
        return self.fn(observation, legal)


def is_given(spec: Any) -> bool:
    """Whether ``spec`` is a bot object or a function rather than a name-based spec."""
    return callable(getattr(spec, "act", None)) or (
        callable(spec) and not isinstance(spec, str | Mapping | tuple | type)
    )


def spec_name(spec: Any) -> str:
    """The name of a seat's bot: its name, or a given bot's ``name`` (a function's ``__name__``)."""
    if isinstance(spec, str):
        return spec
    if callable(getattr(spec, "act", None)):
        return str(getattr(spec, "name", type(spec).__name__))
    return str(getattr(spec, "__name__", type(spec).__name__))


def _one(spec: Any, defaults: Mapping[str, Any]) -> Spec:
    if isinstance(spec, str):
        return spec, dict(defaults)
    if is_given(spec):
        return spec, {}
    if isinstance(spec, Mapping):
        if "name" not in spec or not isinstance(spec["name"], str):
            raise ValueError(f"an opponent mapping needs a bot 'name', not {dict(spec)!r}")
        extra = set(spec) - {"name", "options"}
        if extra:
            raise ValueError(f"an opponent mapping has only 'name' and 'options', not {sorted(extra)}")
        return spec["name"], {**defaults, **dict(spec.get("options") or {})}
    if (
        isinstance(spec, tuple)
        and len(spec) == 2
        and isinstance(spec[0], str)
        and isinstance(spec[1], Mapping)
    ):
        return spec[0], {**defaults, **dict(spec[1])}
    raise ValueError(
        "an opponent is a bot name, (name, options), {'name': ..., 'options': ...}, a bot instance "
        f"(with act(observation, legal)) or a function fn(observation, legal), not {spec!r}"
    )


def opponent_specs(
    opponents: OpponentSpec | Sequence[OpponentSpec],
    count: int,
    options: Mapping[str, Any] | None = None,
) -> list[Spec]:
    """Returns one ``(bot name, options)`` (or ``(given bot, {})``) per opponent seat.

    :raises ValueError: for a malformed spec or a list of the wrong length.
    """
    defaults = dict(options or {})
    if isinstance(opponents, str | Mapping) or is_given(opponents) or (
        isinstance(opponents, tuple) and len(opponents) == 2 and isinstance(opponents[1], Mapping)
    ):
        return [_one(opponents, defaults)] * count
    if not isinstance(opponents, Sequence):
        raise ValueError(
            f"opponents are one spec or a list of specs, not {type(opponents).__name__} {opponents!r}"
        )
    specs = [_one(s, defaults) for s in opponents]
    if len(specs) != count:
        raise ValueError(f"{count} opponent seats need {count} bot names, not {len(specs)}")
    return specs


def opponent_names(opponents: OpponentSpec | Sequence[OpponentSpec], count: int) -> list[str]:
    """Returns one bot name per opponent seat (one name is used for every seat).

    :raises ValueError: when a sequence has the wrong length.
    """
    return [spec_name(name) for name, _ in opponent_specs(opponents, count)]


def make_one(name: Any, options: Mapping[str, Any], seed: int | None, game: str, *, copy_given: bool = True) -> Any:
    """Creates one bot; a bad name or option becomes a ``ValueError`` naming the bot. A given bot is
    deep-copied (or used as it is with ``copy_given=False``); a function is wrapped in :class:`FunctionBot`.

    :raises ValueError: when the bot cannot be made.
    """
    from ..bots import make_bot

    if not isinstance(name, str):
        if callable(getattr(name, "act", None)):
            return copy.deepcopy(name) if copy_given else name
        return FunctionBot(name)

    try:
        return make_bot(name, seed=seed, game=game, **dict(options))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"opponent {name!r} with options {dict(options)!r}: {exc}") from None


def check_specs(specs: Sequence[Spec], game: str) -> None:
    """Makes each distinct bot once so that an unknown name or option fails now.

    :raises ValueError: for the first bot that cannot be made.
    """
    seen: set[str] = set()
    for name, options in specs:
        if not isinstance(name, str):
            continue
        key = f"{name}{sorted(options.items())!r}"
        if key not in seen:
            seen.add(key)
            make_one(name, options, 0, game)


def make_opponents(
    specs: Sequence[Spec],
    seats: Sequence[int],
    game: str,
    players: int,
    rng: np.random.Generator,
) -> dict[int, Any]:
    """Creates and resets one seeded bot per seat (a given bot is used as it is when no other seat
    has it, else deep-copied)."""
    uses = Counter(id(name) for name, _ in specs if not isinstance(name, str))
    bots = {}
    for seat, (name, options) in zip(seats, specs):
        seed = int(rng.integers(1 << 31))
        bot = make_one(name, options, seed, game, copy_given=uses[id(name)] > 1)
        reset_bot(bot, seat, game, players)
        bots[seat] = bot
    return bots


def reset_bot(bot: Any, seat: int, game: str, players: int) -> None:
    """Calls the bot's ``reset`` when it has one (a given bot without memory may not)."""
    reset = getattr(bot, "reset", None)
    if callable(reset):
        reset(seat, game, players)


def batch_method(bot: Any) -> Any:
    """Returns the bot's ``act_batch`` when it has one, else ``None``."""
    fn = getattr(bot, "act_batch", None)
    return fn if callable(fn) else None


def bot_actions(state: GameState, bots: dict[int, Any], seats: Sequence[int]) -> list[tuple[int, Any]]:
    """Asks each bot of ``seats`` for its action from its observation alone (all before any is submitted)."""
    return [(s, bots[s].act(state.observe(s), state.legal_actions(s))) for s in seats]
