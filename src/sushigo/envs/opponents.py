"""Bot opponents for the environments, chosen by name (with options) through :func:`sushigo.bots.make_bot`.

An opponent spec is a bot name (``"mcts"``, ``"neural"``, ``"mypkg.mybot:MyBot"``), a pair
``(name, options)``, or a mapping ``{"name": ..., "options": {...}}``. ``opponents`` is one spec for
every opponent seat or one spec per opponent seat; ``opponent_options`` are defaults that every
seat's own options override. A spec is checked once, when the environment is made, so a typo fails
there and not in the middle of training.

A bot that offers ``act_batch(observations, legal) -> picks`` (the ``neural`` bot does) is asked for
many games at once by the vector environment; such a bot keeps no memory between moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..game import GameState

OpponentSpec = str | tuple[str, Mapping[str, Any]] | Mapping[str, Any]


def _one(spec: Any, defaults: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    if isinstance(spec, str):
        return spec, dict(defaults)
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
        f"an opponent is a bot name, (name, options) or {{'name': ..., 'options': ...}}, not {spec!r}"
    )


def opponent_specs(
    opponents: OpponentSpec | Sequence[OpponentSpec],
    count: int,
    options: Mapping[str, Any] | None = None,
) -> list[tuple[str, dict[str, Any]]]:
    """Returns one ``(bot name, options)`` per opponent seat.

    :raises ValueError: for a malformed spec or a list of the wrong length.
    """
    defaults = dict(options or {})
    if isinstance(opponents, str | Mapping) or (
        isinstance(opponents, tuple) and len(opponents) == 2 and isinstance(opponents[1], Mapping)
    ):
        return [_one(opponents, defaults)] * count
    specs = [_one(s, defaults) for s in opponents]
    if len(specs) != count:
        raise ValueError(f"{count} opponent seats need {count} bot names, not {len(specs)}")
    return specs


def opponent_names(opponents: OpponentSpec | Sequence[OpponentSpec], count: int) -> list[str]:
    """Returns one bot name per opponent seat (one name is used for every seat).

    :raises ValueError: when a sequence has the wrong length.
    """
    return [name for name, _ in opponent_specs(opponents, count)]


def make_one(name: str, options: Mapping[str, Any], seed: int | None, game: str) -> Any:
    """Creates one bot; a bad name or option becomes a ``ValueError`` naming the bot.

    :raises ValueError: when the bot cannot be made.
    """
    from ..bots import make_bot

    try:
        return make_bot(name, seed=seed, game=game, **dict(options))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"opponent {name!r} with options {dict(options)!r}: {exc}") from None


def check_specs(specs: Sequence[tuple[str, dict[str, Any]]], game: str) -> None:
    """Makes each distinct bot once so that an unknown name or option fails now.

    :raises ValueError: for the first bot that cannot be made.
    """
    seen: set[str] = set()
    for name, options in specs:
        key = f"{name}{sorted(options.items())!r}"
        if key not in seen:
            seen.add(key)
            make_one(name, options, 0, game)


def make_opponents(
    specs: Sequence[tuple[str, dict[str, Any]]],
    seats: Sequence[int],
    game: str,
    players: int,
    rng: np.random.Generator,
) -> dict[int, Any]:
    """Creates and resets one seeded bot per seat."""
    bots = {}
    for seat, (name, options) in zip(seats, specs):
        bot = make_one(name, options, int(rng.integers(1 << 31)), game)
        bot.reset(seat, game, players)
        bots[seat] = bot
    return bots


def batch_method(bot: Any) -> Any:
    """Returns the bot's ``act_batch`` when it has one, else ``None``."""
    fn = getattr(bot, "act_batch", None)
    return fn if callable(fn) else None


def bot_actions(state: GameState, bots: dict[int, Any], seats: Sequence[int]) -> list[tuple[int, Any]]:
    """Asks each bot of ``seats`` for its action from its observation alone (all before any is submitted)."""
    return [(s, bots[s].act(state.observe(s), state.legal_actions(s))) for s in seats]
