"""Round and game scoring of Sushi Go! in the formats.md categories (rules.md §1.4, §1.5, §1.6).

Scoring works from tableaux alone, so the engine, the ``sushigo score`` command and the batch engine's
tests share one implementation. Each category has its own small function: the scoring of dumplings is
:func:`dumpling_points`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..scoring import majority_points, pudding_points, winners
from .cards import COLOUR, MAKI_ICONS, NIGIRI_VALUE, Card

CATEGORIES = ("maki", "tempura", "sashimi", "dumpling", "nigiri", "soy_sauce", "total")
DUMPLING_POINTS = (0, 1, 3, 6, 10, 15)


def tempura_points(n: int) -> int:
    """5 points per complete pair."""
    return n // 2 * 5


def sashimi_points(n: int) -> int:
    """10 points per complete set of three."""
    return n // 3 * 10


def dumpling_points(n: int) -> int:
    """1/3/6/10/15 for 1/2/3/4/5+ dumplings: ``min(n(n+1)/2, 15)`` (S2's ``max`` is a typo)."""
    return DUMPLING_POINTS[min(n, 5)]


def place_on_wasabi(tableau: Sequence[Card]) -> list[bool]:
    """Returns, for each card in play order, whether it is a nigiri sitting on an earlier free wasabi.

    Used where only the order of play is known (the scoring input); the engine tracks placement as
    cards are revealed, which also covers the strict-wasabi option.
    """
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


def colour_count(tableau: Sequence[Card]) -> int:
    """Different background colours in a round's tableau (puddings count only when played this round)."""
    return len({COLOUR[c] for c in tableau})


def soy_sauce_points(tableaux: Sequence[Sequence[Card]]) -> list[int]:
    """4 points shared by the soy sauce players with the most colours (rules.md §1.6, decision A3).

    A player without soy sauce who ties for most colours neither scores nor reduces the share; a player
    who has more colours than every soy player leaves them with nothing.
    """
    counts = [colour_count(t) for t in tableaux]
    if not counts:
        return []
    best = max(counts)
    top = [i for i, t in enumerate(tableaux) if Card.SOY_SAUCE in t and counts[i] == best]
    return [4 // len(top) if i in top else 0 for i in range(len(tableaux))]


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
    placement = on_wasabi if on_wasabi is not None else [place_on_wasabi(t) for t in tableaux]
    counts = [[0] * len(Card) for _ in tableaux]
    for row, tableau in zip(counts, tableaux):
        for card in tableau:
            row[card] += 1
    icons = [sum(MAKI_ICONS[c] for c in t) for t in tableaux]
    taking = [icons[i] > 0 and (in_majorities is None or in_majorities[i]) for i in range(len(tableaux))]
    maki = majority_points(icons, 6, 3, ties="split", participants=taking)
    soy = soy_sauce_points(tableaux)
    sheets = []
    for i, tableau in enumerate(tableaux):
        row = counts[i]
        sheet = {
            "maki": maki[i],
            "tempura": tempura_points(row[Card.TEMPURA]),
            "sashimi": sashimi_points(row[Card.SASHIMI]),
            "dumpling": dumpling_points(row[Card.DUMPLING]),
            "nigiri": nigiri_points(tableau, placement[i]),
            "soy_sauce": soy[i],
        }
        sheet["total"] = sum(sheet.values())
        sheets.append(sheet)
    return sheets


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
