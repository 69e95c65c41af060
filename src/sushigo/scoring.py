"""Scoring rules shared by the games: majority races, puddings and the winner (Party uses the winner;
its places are :func:`sushigo.cards.base.place_points`).

Sushi Go! and Sushi Roll differ in how ties are paid, and that difference is easy to get wrong, so both
live here side by side: Sushi Go! *splits* a tied award (rounded down) and gives no second place after a
tied first; Sushi Roll pays *full* points to everyone tied and still awards second place after a tied
first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

TieRule = Literal["split", "full"]


def majority_points(
    values: Sequence[int],
    first: int,
    second: int,
    *,
    ties: TieRule,
    participants: Sequence[bool] | None = None,
) -> list[int]:
    """Returns each seat's points in a "most / second most" race (maki).

    Only ``participants`` take part (by default every seat with a value above 0). With ``ties="split"``
    tied seats share an award rounded down and a tied first place cancels second place (Sushi Go!
    §1.4.1); with ``ties="full"`` every tied seat gets the whole award and second place is the next
    distinct value even after a tied first (Sushi Roll §2.5).

    >>> majority_points([5, 3, 3, 2], 6, 3, ties="split")
    [6, 1, 1, 0]
    >>> majority_points([4, 4, 3, 3], 6, 3, ties="full")
    [6, 6, 3, 3]
    """
    taking = [v > 0 for v in values] if participants is None else list(participants)
    points = [0] * len(values)
    pool = sorted({v for v, t in zip(values, taking) if t}, reverse=True)
    if not pool:
        return points
    top = pool[0]
    firsts = [i for i, v in enumerate(values) if taking[i] and v == top]
    share = first // len(firsts) if ties == "split" else first
    for i in firsts:
        points[i] = share
    if ties == "split" and len(firsts) > 1:
        return points
    if len(pool) > 1:
        runner = pool[1]
        seconds = [i for i, v in enumerate(values) if taking[i] and v == runner]
        share2 = second // len(seconds) if ties == "split" else second
        for i in seconds:
            points[i] = share2
    return points


def pudding_points(counts: Sequence[int], *, ties: TieRule, penalty: bool, amount: int = 6) -> list[int]:
    """Returns each seat's end-of-game pudding points.

    The most puddings win ``amount`` and the fewest (0 included) lose it; tied seats split it rounded
    down (``ties="split"``, computed as ``-(amount // k)``, never ``(-amount) // k``) or each take it in
    full (``ties="full"``). ``penalty=False`` is the two-player rule: nobody loses points. When every
    seat has the same count nobody scores.

    >>> pudding_points([4, 3, 0, 0], ties="split", penalty=True)
    [6, 0, -3, -3]
    >>> pudding_points([6, 6, 0, 0], ties="full", penalty=True)
    [6, 6, -6, -6]
    """
    points = [0] * len(counts)
    if not counts or min(counts) == max(counts):
        return points
    most, least = max(counts), min(counts)
    tops = [i for i, c in enumerate(counts) if c == most]
    for i in tops:
        points[i] += amount // len(tops) if ties == "split" else amount
    if penalty:
        bottoms = [i for i, c in enumerate(counts) if c == least]
        for i in bottoms:
            points[i] -= amount // len(bottoms) if ties == "split" else amount
    return points


def winners(
    totals: Sequence[int], puddings: Sequence[int], eligible: Sequence[bool] | None = None
) -> list[int]:
    """Returns the winning seats: the highest total, then the most puddings, then a shared victory.

    ``eligible`` excludes seats that cannot win (the dummy of the two-player variant).

    >>> winners([40, 40, 12], [2, 3, 0])
    [1]
    >>> winners([40, 40], [2, 2])
    [0, 1]
    """
    seats = [i for i in range(len(totals)) if eligible is None or eligible[i]]
    if not seats:
        return []
    best = max(totals[i] for i in seats)
    tied = [i for i in seats if totals[i] == best]
    most = max(puddings[i] for i in tied)
    return [i for i in tied if puddings[i] == most]
