"""What the OpenSpiel games (:mod:`.spiel_base`) share that needs no pyspiel: returns are zero-sum,
each seat's total minus the mean total."""

from __future__ import annotations

from collections.abc import Sequence


def zero_sum_returns(totals: Sequence[float]) -> list[float]:
    """Each seat's total minus the mean total, so the returns sum to zero."""
    mean = sum(totals) / len(totals)
    return [float(t - mean) for t in totals]
