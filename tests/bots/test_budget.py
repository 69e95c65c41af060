"""The search budget shared by the MCTS bots."""

from __future__ import annotations

import time

from sushigo.bots.budget import MIN_TIMED_ITERATIONS, SearchBudget


def test_iteration_budget_counts_exactly() -> None:
    assert list(SearchBudget.of(5, None, default_iterations=100).count()) == [1, 2, 3, 4, 5]


def test_default_iterations_apply_when_nothing_is_given() -> None:
    assert SearchBudget.of(None, None, default_iterations=7) == SearchBudget(7, None)


def test_time_budget_stops_but_runs_a_minimum() -> None:
    spent = list(SearchBudget.of(None, 0.0, default_iterations=100).count())
    assert spent == list(range(1, MIN_TIMED_ITERATIONS + 1))
    start = time.perf_counter()
    n = sum(1 for _ in SearchBudget.of(None, 20.0, default_iterations=100).count())
    assert n > MIN_TIMED_ITERATIONS and time.perf_counter() - start < 1.0


def test_the_first_limit_reached_wins() -> None:
    assert len(list(SearchBudget.of(3, 10_000.0, default_iterations=100).count())) == 3
