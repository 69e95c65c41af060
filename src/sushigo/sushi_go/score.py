"""Round and game scoring of Sushi Go! in the formats.md categories (rules.md §1.4, §1.5, §1.6).

Scoring works from tableaux alone, so the engine, the ``sushigo score`` command and the batch engine's
tests share one implementation. Each category is one card type of :mod:`sushigo.cards` with a
``score_round`` hook (dumplings: :class:`sushigo.cards.appetizers.Dumpling`); :data:`SCORERS` lists
Sushi Go!'s, in category order. The small functions below are the same formulas by card count.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress

from ..cards import RoundView
from ..cards.appetizers import DUMPLING_POINTS
from ..scoring import pudding_points, winners
from .cards import (
    COLOUR,
    DUMPLING_TYPE,
    MAKI_TYPE,
    NIGIRI_TYPE,
    NIGIRI_VALUE,
    SASHIMI_TYPE,
    SOY_SAUCE_TYPE,
    TEMPURA_TYPE,
    Card,
)

CATEGORIES = ("maki", "tempura", "sashimi", "dumpling", "nigiri", "soy_sauce", "total")
__all__ = ["CATEGORIES", "DUMPLING_POINTS", "SCORERS", "score_round"]

_N = len(Card)
_MAKI, _TEMPURA, _SASHIMI, _DUMPLING, _NIGIRI, _SOY = (
    MAKI_TYPE,
    TEMPURA_TYPE,
    SASHIMI_TYPE,
    DUMPLING_TYPE,
    NIGIRI_TYPE,
    SOY_SAUCE_TYPE,
)

#: Sushi Go!'s round scorers, one card type per category, in :data:`CATEGORIES` order.
SCORERS = (_MAKI, _TEMPURA, _SASHIMI, _DUMPLING, _NIGIRI, _SOY)
assert tuple(t.category for t in SCORERS) == CATEGORIES[:-1]  # score_round unpacks them in this order


def tempura_points(n: int) -> int:
    """5 points per complete pair."""
    return _TEMPURA.points(n)


def sashimi_points(n: int) -> int:
    """10 points per complete set of three."""
    return _SASHIMI.points(n)


def dumpling_points(n: int) -> int:
    """1/3/6/10/15 for 1/2/3/4/5+ dumplings: ``min(n(n+1)/2, 15)`` (S2's ``max`` is a typo)."""
    return _DUMPLING.points(n)


def place_on_wasabi(tableau: Sequence[Card]) -> list[bool]:
    """Returns, for each card in play order, whether it is a nigiri sitting on an earlier free wasabi.

    Used where only the order of play is known (the scoring input); the engine tracks placement as
    cards are revealed, which also covers the strict-wasabi option.
    """
    if Card.WASABI not in tableau:
        return [False] * len(tableau)
    free = 0
    out = []
    for card in tableau:
        on = False
        if card is Card.WASABI:
            free += 1
        elif NIGIRI_VALUE[card] and free:
            free -= 1
            on = True
        out.append(on)
    return out


def nigiri_points(tableau: Sequence[Card], on_wasabi: Sequence[bool]) -> int:
    """Egg 1, salmon 2, squid 3, tripled on a wasabi."""
    return sum(NIGIRI_VALUE[c] * (3 if w else 1) for c, w in zip(tableau, on_wasabi))


def soy_sauce_points(tableaux: Sequence[Sequence[Card]]) -> list[int]:
    """4 points shared by the soy sauce players with the most colours (rules.md §1.6, decision A3)."""
    return _SOY.score_round(_view(tableaux, None, None))


def _view(
    tableaux: Sequence[Sequence[Card]],
    on_wasabi: Sequence[Sequence[bool]] | None,
    in_majorities: Sequence[bool] | None,
) -> RoundView:
    placement = on_wasabi if on_wasabi is not None else [place_on_wasabi(t) for t in tableaux]
    counts = []
    tripled = []
    for tableau, marks in zip(tableaux, placement):
        row = [0] * _N
        for card in tableau:
            row[card] += 1
        tri = [0] * _N
        if True in marks:
            for card in compress(tableau, marks):
                tri[card] += 1
        counts.append(row)
        tripled.append(tri)
    return RoundView(
        len(tableaux),
        counts,
        tripled,
        lambda s: [COLOUR[c] for c in tableaux[s]],
        in_majorities=in_majorities,
    )


def score_round(
    tableaux: Sequence[Sequence[Card]],
    on_wasabi: Sequence[Sequence[bool]] | None = None,
    *,
    in_majorities: Sequence[bool] | None = None,
) -> list[dict[str, int]]:
    """Returns each tableau's points for one round, by formats.md category.

    ``on_wasabi`` gives the engine's nigiri placement (computed from play order when left out);
    ``in_majorities`` leaves a tableau out of the maki race (the dummy, with that option).

    >>> score_round([[Card.WASABI, Card.EGG_NIGIRI, Card.SQUID_NIGIRI, Card.WASABI, Card.SALMON_NIGIRI]])[0]["nigiri"]
    12
    """
    view = _view(tableaux, on_wasabi, in_majorities)
    maki, tempura, sashimi, dumpling, nigiri, soy = (t.score_round(view) for t in SCORERS)
    return [
        {
            "maki": a,
            "tempura": b,
            "sashimi": c,
            "dumpling": d,
            "nigiri": e,
            "soy_sauce": f,
            "total": a + b + c + d + e + f,
        }
        for a, b, c, d, e, f in zip(maki, tempura, sashimi, dumpling, nigiri, soy)
    ]


def game_pudding_points(
    counts: Sequence[int], *, two_player_rule: bool, in_majorities: Sequence[bool] | None = None
) -> list[int]:
    """End-of-game pudding points (§1.4.7): split ties, ``-(6 // k)`` for the fewest, none when all tie.

    ``two_player_rule`` removes the loss for the fewest; ``in_majorities`` leaves seats out of the race.
    """
    seats = [i for i in range(len(counts)) if in_majorities is None or in_majorities[i]]
    part = pudding_points([counts[i] for i in seats], ties="split", penalty=not two_player_rule)
    out = [0] * len(counts)
    for i, p in zip(seats, part):
        out[i] = p
    return out


def game_winners(totals: Sequence[int], puddings: Sequence[int], players: int) -> list[int]:
    """Winning seats among the first ``players`` tableaux (the dummy never wins)."""
    return winners(totals, puddings, [i < players for i in range(len(totals))])
