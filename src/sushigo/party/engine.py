"""What a Party action card may use of the engine: the :class:`PartyEngine` protocol and the :class:`Item`.

An action card (chopsticks, spoon, menu, takeout box; :mod:`sushigo.cards.specials`) acts at its
number during the resolve phase of a turn. The engine (:mod:`.rules`) queues one :class:`Item` per use
of such a card and asks the card, through its hooks, everything about that item: what to draw, who
decides, which decisions are legal, how to apply one, what an illegal one is told, and which fields
its plays add to the turn log. The card may touch the game only through the few primitives below, so
this protocol is the whole contract between the cards and the engine; :class:`~.rules.PartyState`
implements it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .actions import Play
from .cards import PCard
from .options import PartyConfig
from .table import Entry, Table

if TYPE_CHECKING:
    from ..cards.specials import ActionCard

_SO = PCard.SPECIAL_ORDER


@dataclass(eq=False)
class Item:
    """One use of a numbered card in this turn's queue (a declared bonus, a played menu or box).

    ``step`` and ``data`` belong to the card (a spoon's ``"ask"``/``"give"``/``"place"``, a menu's
    ``data["drawn"]``); ``decider`` is the seat that owes the item's next decision; ``log_pos`` the
    turn-log position of the play that brought a menu or takeout box.
    """

    number: int
    seat: int
    entry: Entry
    kind: ActionCard
    log_pos: int = -1
    step: str = "go"
    decider: int = -1
    data: dict[str, Any] = field(default_factory=dict)

    def key(self) -> tuple[int, int, int, int]:
        """Resolution order: number, then seat from 0, then an original before a copy."""
        return (self.number, self.seat, int(self.entry.card == _SO), self.entry.index)


class PartyEngine(Protocol):
    """The engine primitives an :class:`~sushigo.cards.specials.ActionCard` may use.

    ``hands`` (per seat, card ids) and ``table`` (the round's tableaux) may be changed directly: a
    card moves cards between a hand and a tableau with ``hands[s].remove``/``append`` and
    :meth:`Table.take_back`/:meth:`Table.discard`/:meth:`Table.flip`. Everything else goes through
    the methods.
    """

    config: PartyConfig
    players: int
    hands: list[list[int]]
    table: Table

    def extra_plays(self, seat: int, cards: Sequence[int], *, using: Entry | None) -> list[Play]:
        """The legal ways for ``seat`` to play one extra card among ``cards`` (a special order's
        targets worked out; ``using`` is the bonus card in use, never a target)."""
        ...

    def play_extra(self, seat: int, play: Play, via: Item) -> None:
        """Places an extra card for ``seat`` through ``via`` (logged with ``via``'s log fields); it is
        played this turn for every purpose (a played menu or takeout box joins the queue)."""
        ...

    def return_to_deck(self, cards: Sequence[int]) -> None:
        """Puts cards back into the deck (shuffled in)."""
        ...

    def note(self, seat: int, fields: dict[str, Any]) -> None:
        """Adds an entry to ``seat``'s log of this turn (a play that brought no card: ``card`` None)."""
        ...

    def annotate(self, item: Item, fields: dict[str, Any]) -> None:
        """Adds fields to the logged play that brought ``item`` (a takeout box's ``flip``)."""
        ...


__all__ = ["Item", "PartyEngine"]
