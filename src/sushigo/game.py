"""The one interface every client (commands, bots, server, environments) uses for both games.

Sushi Go! and Sushi Roll have different rules but the same shape: a mutable state, the seats that owe
an action now, the legal actions of a seat, a per-seat observation, a record and a score report.
Clients program against :class:`GameState` and pick a game by name with :func:`new_game`, so adding a
game never touches them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .errors import InvalidActionError, RecordError

GAME_NAMES = ("sushi-go", "sushi-roll", "sushi-go-party")


@runtime_checkable
class GameState(Protocol):
    """What both games' states offer. ``State`` objects are the only mutable values of the core."""

    game: str
    players: int

    def is_over(self) -> bool:
        """Tells whether the game has ended."""

    def to_act(self) -> tuple[int, ...]:
        """Returns the seats that still owe an action now (several at once in Sushi Go!)."""

    def legal_actions(self, seat: int) -> list[Any]:
        """Returns the seat's legal actions now (empty when it does not act)."""

    def submit(self, seat: int, action: Any) -> None:
        """Checks and applies one seat's action; raises and changes nothing when it is illegal."""

    def observe(self, seat: int | None) -> Any:
        """Returns what ``seat`` may know (``None``: a spectator) and nothing more."""

    def clone(self) -> Any:
        """Returns an independent deep copy (for search)."""

    def to_record(self, *, seed: int | None = None) -> dict[str, Any]:
        """Returns the game so far as a ``sushigo-record/1`` document (``seed`` is written only if given)."""

    def score_report(self) -> dict[str, Any]:
        """Returns the formats.md score output for the game so far."""


@dataclass(frozen=True)
class GameSpec:
    """How to create, parse and reload one game; filled in by each game package."""

    name: str
    new_game: Callable[..., GameState]
    parse_action: Callable[[str], Any]
    load_record: Callable[[Mapping[str, Any]], GameState]
    score_input: Callable[[Mapping[str, Any]], dict[str, Any]]


def spec(game: str) -> GameSpec:
    """Returns the :class:`GameSpec` of ``game`` ("sushi-go", "sushi-roll" or "sushi-go-party").

    :raises InvalidActionError: for an unknown game name.
    """
    if game == "sushi-go":
        from .sushi_go import api as sg

        return sg.SPEC
    if game == "sushi-roll":
        from .sushi_roll import api as sr

        return sr.SPEC
    if game == "sushi-go-party":
        from .party import api as party

        return party.SPEC
    raise InvalidActionError(f"unknown game {game!r}; expected one of {', '.join(GAME_NAMES)}")


def new_game(game: str, players: int, seed: int | None = None, **options: Any) -> GameState:
    """Creates a new game of ``game`` for ``players`` seats, dealt or rolled from ``seed``."""
    return spec(game).new_game(players=players, seed=seed, **options)


def load_record(doc: Mapping[str, Any]) -> GameState:
    """Replays a ``sushigo-record/1`` document of either game to the state after its last step.

    :raises RecordError: locating the first problem by round, turn and seat.
    """
    if not isinstance(doc, Mapping):
        raise RecordError("a record must be a JSON object")
    if doc.get("format") != "sushigo-record/1":
        raise RecordError(f"unknown record format {doc.get('format')!r}; expected 'sushigo-record/1'")
    game = doc.get("game", "sushi-go")
    if game not in GAME_NAMES:
        raise RecordError(f"unknown game {game!r}")
    return spec(game).load_record(doc)


def score_input(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Scores a formats.md scoring input (tableaus or trays) of either game."""
    if not isinstance(doc, Mapping):
        raise RecordError("a scoring input must be a JSON object")
    game = doc.get("game", "sushi-go")
    if game not in GAME_NAMES:
        raise RecordError(f"unknown game {game!r}")
    return spec(game).score_input(doc)
