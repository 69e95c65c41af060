"""Desserts, scored at the end of the game: pudding (both games), green tea ice cream, fruit (Party).

rules.md §1.4.7 and §3.4.21–23. Sushi Go!'s pudding splits ties (its score.py uses
:func:`sushigo.scoring.pudding_points` directly); Party's pays them in full (:class:`Pudding`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from .appetizers import per_set
from .base import CardType, GameView, most_fewest_points
from .text import N_, Text, gettext, ngettext

FRUIT_POINTS = (-2, 0, 1, 3, 6, 10)


class Pudding(CardType):
    """Party: most puddings +6, fewest (0 included) −6, full points on ties; no loss at 2 players."""
    title = N_("Pudding")
    summary_text = Text(N_("Pudding: at the end of the game most puddings score 6, fewest lose 6."))
    short_text = Text(N_("end of game"))

    name = category = "pudding"
    colour = "pink"

    def score_game(self, view: GameView) -> list[int]:
        counts = [sum(row[k] for k in self.variants) for row in view.counts]
        return most_fewest_points(counts, 6, penalty=view.players > 2, all_tied=view.options.all_tied)


class GreenTeaIceCream(CardType):
    """12 points per complete set of four."""
    title = N_("Green tea ice cream")

    name = category = "green_tea_ice_cream"
    colour = "cyan"
    #: cards in a complete set, and the points the set scores
    SET_SIZE, SET_POINTS = 4, 12

    @property
    def summary_text(self) -> Text:
        return ngettext(
            "Green tea ice cream: {n} point for each {size} at the end of the game.",
            "Green tea ice cream: {n} points for each {size} at the end of the game.",
            self.SET_POINTS,
            size=self.SET_SIZE,
        )

    @property
    def short_text(self) -> Text:
        return per_set(self.SET_POINTS, self.SET_SIZE)

    def score_game(self, view: GameView) -> list[int]:
        size, points = self.SET_SIZE, self.SET_POINTS
        return [sum(row[k] for k in self.variants) // size * points for row in view.counts]


class Fruit(CardType):
    """Each fruit scored on its icon total: 0 → −2, 1 → 0, 2 → 1, 3 → 3, 4 → 6, 5+ → 10.

    ``icons`` maps each variant key to its (watermelon, pineapple, orange) icons.
    """
    title = N_("Fruit")
    short_text = Text(N_("fruit"))
    #: the three kinds' words, in icon order (a fruit card's name and rule name them)
    KIND_WORDS: ClassVar[dict[str, str]] = {"w": N_("watermelon"), "p": N_("pineapple"), "o": N_("orange")}
    #: a card with two icons of one kind ("2 watermelon"): one msgid each, since a count agrees with its word
    PAIR_WORDS: ClassVar[dict[str, str]] = {"w": N_("2 watermelon"), "p": N_("2 pineapple"), "o": N_("2 orange")}

    @property
    def summary_text(self) -> Text:
        last = len(FRUIT_POINTS) - 1
        steps = ", ".join(
            f"{n}{'+' * (n == last)}→{str(p).replace('-', '−')}" for n, p in enumerate(FRUIT_POINTS)
        )
        return gettext("Fruit: at the end of the game each fruit kind scores by its count: {steps}.", steps=steps)

    name = category = "fruit"
    colour = "coral"

    def __init__(self, icons: Mapping[int, tuple[int, int, int]]) -> None:
        super().__init__(tuple(icons))
        self.icons = dict(icons)

    def totals(self, row: Sequence[int]) -> tuple[int, int, int]:
        """(watermelon, pineapple, orange) icons over a seat's kept fruit cards."""
        w, p, o = 0, 0, 0
        for k, (a, b, c) in self.icons.items():
            n = row[k]
            w, p, o = w + n * a, p + n * b, o + n * c
        return w, p, o

    def score_game(self, view: GameView) -> list[int]:
        return [sum(FRUIT_POINTS[min(n, len(FRUIT_POINTS) - 1)] for n in self.totals(row)) for row in view.counts]

    @staticmethod
    def points_for(totals: tuple[int, int, int]) -> int:
        """Points for given icon totals (the rulebook's arithmetic example uses totals no deck can make)."""
        return sum(FRUIT_POINTS[min(n, len(FRUIT_POINTS) - 1)] for n in totals)
