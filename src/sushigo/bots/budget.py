"""How long a search bot may think: a number of iterations, a wall-clock budget, or both."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

#: Iterations a timed search always runs, so that even a tiny budget returns an informed choice.
MIN_TIMED_ITERATIONS = 8


@dataclass(frozen=True)
class SearchBudget:
    """A search budget; whichever limit is reached first ends the search.

    An iteration budget alone makes a seeded bot deterministic, which a time budget cannot be.
    """

    iterations: int | None
    time_ms: float | None

    @classmethod
    def of(cls, iterations: int | None, time_ms: float | None, default_iterations: int) -> SearchBudget:
        """Builds the budget from a bot's options, using ``default_iterations`` when neither is given."""
        if iterations is None and time_ms is None:
            iterations = default_iterations
        return cls(
            iterations=None if iterations is None else int(iterations),
            time_ms=None if time_ms is None else float(time_ms),
        )

    def count(self) -> Iterator[int]:
        """Yields 1, 2, 3, ... until the budget is spent (the clock starts at the first iteration)."""
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000.0
        it = 0
        while True:
            if self.iterations is not None and it >= self.iterations:
                return
            if deadline is not None and it >= MIN_TIMED_ITERATIONS and time.perf_counter() >= deadline:
                return
            it += 1
            yield it
