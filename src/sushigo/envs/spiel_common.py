"""What the OpenSpiel games (:mod:`.openspiel_game`, :mod:`.party_openspiel`) share, without pyspiel.

Chance over a counted pile: a card (or die) is drawn from the copies left, so each outcome's
probability is its count over the pile's size (drawing one removes one copy). Returns are zero-sum:
each seat's total minus the mean total.
"""

from __future__ import annotations

from collections.abc import Sequence


def count_outcomes(left: Sequence[int]) -> list[tuple[int, float]]:
    """The chance outcomes of one draw from a pile with ``left[k]`` copies of kind ``k``: every kind
    with a copy left, with probability ``left[k] / sum(left)``."""
    total = sum(left)
    return [(k, c / total) for k, c in enumerate(left) if c]


def zero_sum_returns(totals: Sequence[float]) -> list[float]:
    """Each seat's total minus the mean total, so the returns sum to zero."""
    mean = sum(totals) / len(totals)
    return [float(t - mean) for t in totals]
