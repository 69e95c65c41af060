"""The batch engine: many Sushi Go! games at once on NumPy arrays, checked against the core.

:func:`simulate` and :func:`iter_simulate` play random games (Numba kernel when installed),
:func:`run` plays games driven by a batched policy function, and :class:`SushiGoBatch` is the lockstep
engine underneath. See ``docs/batch.md``.
"""

from __future__ import annotations

from ..errors import require

require("numpy", "rl", "sushigo.batch")

from .engine import (  # noqa: E402
    BatchResult,
    SushiGoBatch,
    iter_simulate,
    make_config,
    numba_available,
    random_policy,
    run,
    simulate,
)

__all__ = [
    "BatchResult",
    "SushiGoBatch",
    "iter_simulate",
    "make_config",
    "numba_available",
    "random_policy",
    "run",
    "simulate",
]
