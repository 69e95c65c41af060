"""Rolls: maki (both games), temaki and uramaki (Party) — rules.md §1.4.1, §3.4.3–5."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..party.table import Table

from ..scoring import majority_points
from .base import CardType, RoundView, most_fewest_points, place_points
from .text import N_, Text, gettext


class Maki(CardType):
    """Most maki icons 6, second 3 — Sushi Go! splits ties (``ties="split"``), Party pays them in full.

    Party pays 6/4/2 at 6–8 players (``places_many``). Only seats with at least one icon take part.
    """
    title = N_("Maki")
    short_text = Text(N_("most rolls"))

    name = "maki"
    category = "maki"
    colour = "red"
    #: points for the most and the second most icons (Party's 6–8 players: ``places_many``)
    PLACES = (6, 3)

    def __init__(
        self, icons: Mapping[int, int], *, ties: str, places_many: tuple[int, ...] | None = None
    ) -> None:
        super().__init__(tuple(icons))
        self.icons = tuple(icons.items())
        self.ties = ties
        self.places_many = places_many

    @property
    def summary_text(self) -> Text:
        first, second = self.PLACES
        many = self.places_many
        if many:
            return gettext(
                "Maki: most icons score {first}, second {second} ({many} for first to third at 6 to 8 "
                "players); ties score in full.",
                first=first,
                second=second,
                many="/".join(map(str, many)),
            )
        if self.ties == "split":
            return gettext("Maki: most icons score {first}, second {second}; ties split the points.", first=first, second=second)
        return gettext("Maki: most icons score {first}, second {second}; ties score in full.", first=first, second=second)

    def icon_totals(self, view: RoundView) -> list[int]:
        """Maki icons per seat."""
        out = []
        for row in view.counts:
            total = 0
            for k, n in self.icons:
                total += row[k] * n
            out.append(total)
        return out

    def score_round(self, view: RoundView) -> list[int]:
        icons = self.icon_totals(view)
        mask = view.in_majorities
        taking = [icons[i] > 0 and (mask is None or mask[i]) for i in range(len(icons))]
        if self.ties == "split":
            first, second = self.PLACES
            return majority_points(icons, first, second, ties="split", participants=taking)
        places = self.places_many if (self.places_many and view.players >= 6) else self.PLACES
        return place_points(icons, places, taking)


class Temaki(CardType):
    """Party: most temaki cards +4, fewest (0 included) −4; no loss at 2 players; option ``all_tied``."""
    title = N_("Temaki")
    summary_text = Text(N_("Temaki: most temaki score 4, fewest lose 4 (with 2 players nobody loses)."))
    short_text = Text(N_("most +4, fewest −4"))

    name = "temaki"
    category = "temaki"
    colour = "plum"

    def score_round(self, view: RoundView) -> list[int]:
        counts = [view.total(s, self.variants) for s in range(view.seats)]
        return most_fewest_points(counts, 4, penalty=view.players > 2, all_tied=view.options.all_tied)


class Uramaki(CardType):
    """Party: the race to 10 icons, checked at the end of every turn (§3.4.5), plus a round-end place.

    :meth:`end_of_turn` scores the race: while places (8, 5, 2) remain, the seats with ≥10 icons and
    the highest total take the next place in full, k tied seats using up k places, and their uramaki
    (copies included) are discarded; once the three places are gone the race stops. At round end the
    most icons left (≥1) take the next unclaimed place, ties in full.
    """
    title = N_("Uramaki")

    name = "uramaki"
    category = "uramaki"
    colour = "lime_yellow"
    PLACES = (8, 5, 2)
    #: icons that win a place in the race
    GOAL = 10

    def __init__(self, icons: Mapping[int, int]) -> None:
        super().__init__(tuple(icons))
        self.icons = dict(icons)

    @property
    def summary_text(self) -> Text:
        first, *rest = self.PLACES
        then = "".join(f", {p}" for p in rest)  # "8, 5, 2": numbers only, the words are the template's
        if len(rest) == 2:
            return gettext(
                "Uramaki: at the end of each turn the first to {goal} icons scores {first}, then {second}, "
                "then {third}.",
                goal=self.GOAL,
                first=first,
                second=rest[0],
                third=rest[1],
            )
        return gettext(
            "Uramaki: at the end of each turn the first to {goal} icons scores {first}{then}.",
            goal=self.GOAL,
            first=first,
            then=then,
        )

    @property
    def short_text(self) -> Text:
        return gettext("race to {goal}", goal=self.GOAL)

    def seat_icons(self, table: Table, seat: int) -> int:
        """Uramaki icons in ``seat``'s tableau now (face-down cards have none)."""
        return sum(self.icons.get(e.identity, 0) for e in table.present(seat))

    def end_of_turn(self, table: Table) -> None:
        claimed = table.uramaki_claimed
        while claimed < len(self.PLACES):
            totals = [self.seat_icons(table, s) for s in range(table.players)]
            candidates = [t for t in totals if t >= self.GOAL]
            if not candidates:
                return
            best = max(candidates)
            winners = [s for s, t in enumerate(totals) if t == best]
            for s in winners:
                table.race_points[s] += self.PLACES[claimed]
                for e in list(table.present(s)):
                    if e.identity in self.icons:
                        table.discard(s, e)
            claimed = min(len(self.PLACES), claimed + len(winners))
            table.uramaki_claimed = claimed

    def score_round(self, view: RoundView) -> list[int]:
        points = list(view.extra.get("uramaki_race", [0] * view.seats))
        claimed = view.extra.get("uramaki_claimed", 0)
        if claimed < len(self.PLACES):
            left = [sum(view.counts[s][k] * n for k, n in self.icons.items()) for s in range(view.seats)]
            best = max(left, default=0)
            if best > 0:
                for s, n in enumerate(left):
                    if n == best:
                        points[s] += self.PLACES[claimed]
        return points
