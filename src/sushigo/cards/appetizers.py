"""Appetizers: tempura, sashimi, dumpling (both games); eel, tofu, onigiri, edamame, miso soup (Party).

rules.md §1.4.2–4 and §3.4.6–13. Each class is one card's whole rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from ..party.table import Entry, Table

from .base import CardType, RoundView
from .text import N_, Text, gettext, ngettext

#: dumpling points by count; more dumplings than the table's last count score its last entry
DUMPLING_POINTS = (0, 1, 3, 6, 10, 15)


def set_rule(title: str, size: int, points: int) -> Text:
    """"Tempura: 5 points for each pair." for a set of ``size`` cards scoring ``points``: one whole
    sentence per set size, so that a language words each (a pair is not a set of three everywhere)."""
    name = Text(title)
    if size == 2:
        return ngettext("{name}: {n} point for each pair.", "{name}: {n} points for each pair.", points, name=name)
    if size == 3:
        return ngettext(
            "{name}: {n} point for each set of three.", "{name}: {n} points for each set of three.", points, name=name
        )
    return ngettext(
        "{name}: {n} point for each set of {size}.", "{name}: {n} points for each set of {size}.", points,
        name=name, size=size,
    )


def per_set(points: int, size: int) -> Text:
    """A set type's face words: "5 per pair", "10 per 3"."""
    if size == 2:
        return gettext("{points} per pair", points=points)
    return gettext("{points} per {size}", points=points, size=size)


class _Counted(CardType):
    """A type scored on its own card count through :meth:`points` (looked up from a table of it)."""

    _TABLE_SIZE = 32

    def __init__(self, variants: Sequence[int] = ()) -> None:
        super().__init__(variants)
        self._table = tuple(self.points(n) for n in range(self._TABLE_SIZE))

    def count_points(self) -> tuple[int, ...]:
        """The points of 0 to 31 cards (no deck holds more of one type)."""
        return self._table

    def points(self, n: int) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def _lookup(self, n: int) -> int:
        return self._table[n] if n < self._TABLE_SIZE else self.points(n)

    def score_round(self, view: RoundView) -> list[int]:
        if len(self.variants) == 1:
            k = self.variants[0]
            table = self._table
            try:
                return [table[row[k]] for row in view.counts]
            except IndexError:  # more cards of one kind than any round deals: compute
                return [self._lookup(row[k]) for row in view.counts]
        return [self._lookup(view.total(s, self.variants)) for s in range(view.seats)]


class Tempura(_Counted):
    """5 points per complete pair."""
    title = N_("Tempura")

    name = category = "tempura"
    colour = "lavender"
    #: cards in a complete set, and the points the set scores
    SET_SIZE, SET_POINTS = 2, 5

    @property
    def summary_text(self) -> Text:
        return set_rule(self.title, self.SET_SIZE, self.SET_POINTS)

    @property
    def short_text(self) -> Text:
        return per_set(self.SET_POINTS, self.SET_SIZE)

    def points(self, n: int) -> int:
        return n // self.SET_SIZE * self.SET_POINTS


class Sashimi(_Counted):
    """10 points per complete set of three."""
    title = N_("Sashimi")

    name = category = "sashimi"
    colour = "lime_green"
    #: cards in a complete set, and the points the set scores
    SET_SIZE, SET_POINTS = 3, 10

    @property
    def summary_text(self) -> Text:
        return set_rule(self.title, self.SET_SIZE, self.SET_POINTS)

    @property
    def short_text(self) -> Text:
        return per_set(self.SET_POINTS, self.SET_SIZE)

    def points(self, n: int) -> int:
        return n // self.SET_SIZE * self.SET_POINTS


class Dumpling(_Counted):
    """1/3/6/10/15 for 1/2/3/4/5+ dumplings (S2's ``max`` formula is a typo, rules.md A11)."""
    title = N_("Dumpling")

    name = category = "dumpling"
    colour = "blue"

    @property
    def summary_text(self) -> Text:
        steps = DUMPLING_POINTS[1:]  # read when asked: the module's table is the one place
        return ngettext(
            "Dumplings: {points} point for 1 to {n} or more.",
            "Dumplings: {points} points for 1 to {n} or more.",
            len(steps),
            points=", ".join(map(str, steps)),
        )

    @property
    def short_text(self) -> Text:
        return Text(" ".join(map(str, DUMPLING_POINTS[1:])))

    def points(self, n: int) -> int:
        return DUMPLING_POINTS[min(n, len(DUMPLING_POINTS) - 1)]


class Eel(_Counted):
    """One eel −3, two or more 7."""
    title = N_("Eel")
    summary_text = Text(N_("Eel: one scores −3, two or more score 7."))
    short_text = Text("1: −3 · 2+: 7")

    name = category = "eel"
    colour = "indigo"

    def points(self, n: int) -> int:
        return 0 if n == 0 else (-3 if n == 1 else 7)


class Tofu(_Counted):
    """One tofu 2, two 6, three or more 0."""
    title = N_("Tofu")
    summary_text = Text(N_("Tofu: one scores 2, two score 6, three or more score 0."))
    short_text = Text("1: 2 · 2: 6 · 3+: 0")

    name = category = "tofu"
    colour = "green"

    def points(self, n: int) -> int:
        return (0, 2, 6)[n] if n < 3 else 0


class Onigiri(CardType):
    """Sets of distinct shapes 1/4/9/16; each set takes one of every shape still left (best grouping)."""
    title = N_("Onigiri")
    summary_text = Text(N_("Onigiri: each set of different shapes scores 1, 4, 9 or 16 for 1 to 4 shapes."))
    short_text = Text(N_("sets of shapes"))
    #: each shape's card name (the variant's wire name is ``onigiri_<shape>``)
    SHAPE_NAMES: ClassVar[dict[str, str]] = {
        "circle": N_("Onigiri circle"),
        "triangle": N_("Onigiri triangle"),
        "square": N_("Onigiri square"),
        "rectangle": N_("Onigiri rectangle"),
    }

    name = category = "onigiri"
    colour = "magenta"

    def score_round(self, view: RoundView) -> list[int]:
        out = []
        for s in range(view.seats):
            left = sorted((view.counts[s][k] for k in self.variants), reverse=True)
            total = 0
            # the j-th set has one card of every shape that has at least j cards
            for depth in range(1, (left[0] if left else 0) + 1):
                shapes = sum(1 for n in left if n >= depth)
                total += shapes * shapes
            out.append(total)
        return out


class Edamame(CardType):
    """Each edamame: 1 per *opponent* with any edamame, at most 4 per card (rules.md §3.4.12)."""
    title = N_("Edamame")
    summary_text = Text(N_("Edamame: 1 point for each opponent with edamame (at most 4)."))
    short_text = Text(N_("1 per opponent's"))

    name = category = "edamame"
    colour = "purple"

    def score_round(self, view: RoundView) -> list[int]:
        have = [view.total(s, self.variants) for s in range(view.seats)]
        eaters = sum(1 for n in have if n)
        return [n * min(4, eaters - 1) if n else 0 for n in have]


class MisoSoup(CardType):
    """3 points; if two or more miso soups are played in one turn, by anyone, all of them are discarded.

    :meth:`end_of_turn` counts every miso soup that joined a tableau this turn (copies and extra
    cards included) and discards them all when there are two or more.
    """
    title = N_("Miso soup")
    summary_text = Text(N_("Miso soup: 3 points, but if anyone else plays miso soup the same turn, all are discarded."))
    short_text = Text(N_("3, alone this turn"))

    name = category = "miso_soup"
    colour = "teal"

    def end_of_turn(self, table: Table) -> None:
        fresh: Sequence[tuple[int, Entry]] = [
            (s, e) for s, e in table.this_turn if e.present and e.identity in self.variants
        ]
        if len(fresh) >= 2:
            for s, e in fresh:
                table.discard(s, e)

    def score_round(self, view: RoundView) -> list[int]:
        return [3 * view.total(s, self.variants) for s in range(view.seats)]
