"""Nigiri and wasabi (rules.md §1.4.5, §3.4.1–2): face value, tripled on a wasabi."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..party.table import Entry, Table

from .base import CardType, RoundView
from .text import N_, Text, gettext

#: the nigiri kinds, cheapest first (both games' nigiri are egg, salmon and squid)
NIGIRI_KINDS = ("egg", "salmon", "squid")
#: each kind's card name (a msgid: the catalogue names a nigiri card with it)
NIGIRI_NAMES: dict[str, str] = {
    "egg": N_("Egg nigiri"),
    "salmon": N_("Salmon nigiri"),
    "squid": N_("Squid nigiri"),
}


class Nigiri(CardType):
    """Egg 1, salmon 2, squid 3, ×3 on a wasabi; the wasabi bonus is scored here, not under wasabi.

    ``values`` maps each nigiri variant key to its face value. In Party, a nigiri that joins a
    tableau goes onto the earliest free wasabi (:meth:`reveal`); Sushi Go!'s rules.py does the same
    at its reveal (with its strict-wasabi option).
    """
    title = N_("Nigiri")

    name = "nigiri"
    category = "nigiri"
    colour = "yellow"
    #: a nigiri on a wasabi scores its face value times this
    WASABI_FACTOR = 3

    def __init__(self, values: Mapping[int, int]) -> None:
        super().__init__(tuple(values))
        self.values = dict(values)

    @property
    def summary_text(self) -> Text:
        # the kinds are words of the template (each language names them), their values params
        values = dict(zip(NIGIRI_KINDS, sorted(self.values.values())))
        return gettext(
            "Nigiri: egg {egg}, salmon {salmon}, squid {squid} (×{factor} on a wasabi).",
            **values,
            factor=self.WASABI_FACTOR,
        )

    @property
    def short_text(self) -> Text:
        return Text(" ".join(str(v) for v in sorted(self.values.values())))

    def reveal(self, table: Table, seat: int, entry: Entry) -> None:
        """Puts the nigiri onto a free wasabi (a special-order copy may decline with ``wasabi: false``)."""
        if not entry.wasabi_ok:
            return
        wasabi = table.free_wasabi(seat)
        if wasabi is not None:
            table.put_on_wasabi(seat, entry, wasabi)

    def score_round(self, view: RoundView) -> list[int]:
        """Face value of every nigiri, times :attr:`WASABI_FACTOR` for those on a wasabi."""
        out = []
        items = tuple(self.values.items())
        extra = self.WASABI_FACTOR - 1
        for row, tri in zip(view.counts, view.tripled):
            total = 0
            for k, v in items:
                total += v * (row[k] + extra * tri[k])
            out.append(total)
        return out


class Wasabi(CardType):
    """No effect and no points of its own: it triples the next nigiri (see :class:`Nigiri`)."""
    title = N_("Wasabi")

    @property
    def summary_text(self) -> Text:
        return gettext("Wasabi: the next nigiri you play scores ×{factor}.", factor=Nigiri.WASABI_FACTOR)

    @property
    def short_text(self) -> Text:
        return gettext("×{factor} next nigiri", factor=Nigiri.WASABI_FACTOR)

    name = "wasabi"
    colour = "yellow"  # shares nigiri's colour (rules.md §3.1: the tea example)
