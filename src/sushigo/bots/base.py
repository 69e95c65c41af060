"""The bot interface: a bot sees its seat's observation and the legal actions, never the game state.

A bot is any object with :meth:`Bot.reset` and :meth:`Bot.act`. The runner (:mod:`sushigo.runner`)
calls ``reset`` once per game and ``act`` whenever the seat must move, handing it only
``state.observe(seat)`` and ``state.legal_actions(seat)``; a bot may keep its own memory across turns,
observations included (they never change once built). A bot that never reads its observation may
declare ``reads_observation = False``: the runner then builds none and hands it ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Bot(Protocol):
    """What a bot provides. ``name`` identifies it in tournaments and logs."""

    name: str

    def reset(self, seat: int, game: str, players: int) -> None:
        """Prepares for a new game in which the bot plays ``seat`` of ``game`` (a name of ``GAME_NAMES``)."""

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns one of ``legal``, chosen from ``observation`` (and the bot's own memory) alone."""


class BaseBot:
    """A convenient base: stores the seat and a seeded RNG so that a bot's choices are reproducible."""

    name = "base"
    #: whether the runner must build this bot's observations (``False``: it is handed ``None``)
    reads_observation = True

    def __init__(self, seed: int | None = None) -> None:
        import random

        self.seed = seed
        self.rng = random.Random(seed)
        self.seat = 0
        self.game = "sushi-go"
        self.players = 0

    def reset(self, seat: int, game: str, players: int) -> None:
        """Remembers the seat; subclasses that keep memory clear it here."""
        self.seat = seat
        self.game = game
        self.players = players

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError
