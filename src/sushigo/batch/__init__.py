"""The batch engine: many Sushi Go! games at once on NumPy arrays, checked against the core.

:func:`simulate` and :func:`iter_simulate` play random games (Numba kernel when installed),
:func:`run` plays games driven by a batched policy function, and :class:`SushiGoBatch` is the lockstep
engine underneath. See ``docs/batch.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import require

require("numpy", "rl", "sushigo.batch")

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


def __getattr__(name: str) -> Any:
    # The engine is imported on first use: it brings the environments' encoding (Gymnasium, the rl
    # extra), while its card tables (:mod:`.tables`, NumPy only) also serve the JAX engine.
    if name in __all__:
        from . import engine

        return getattr(engine, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if TYPE_CHECKING:
    from .engine import (
        BatchResult,
        SushiGoBatch,
        iter_simulate,
        make_config,
        numba_available,
        random_policy,
        run,
        simulate,
    )
