"""benchmarks/strength.py's equal-time measure at a tiny size in every game: the ratio it prints is
what the equal-CPU tables' ``alpha`` budgets come from, so it must keep running for all three."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


@pytest.mark.parametrize("game", ["sushi-go", "sushi-roll", "sushi-go-party"])
def test_the_cpu_ratio_is_measured_on_searched_moves_of_every_game(
    game: str, load_benchmark: Callable[[str], Any]
) -> None:
    strength = load_benchmark("strength")
    _, tables = strength.CPU_RATIO_TABLES[game]
    players, options = tables[0]
    ratio, moves = strength.cpu_ratio(players, games=1, iterations=4, game=game, **options)
    assert moves > 0 and 0.0 < ratio < 100.0


def test_every_run_has_a_command_and_a_group(load_benchmark: Callable[[str], Any]) -> None:
    strength = load_benchmark("strength")
    for name, (group, _) in strength.RUNS.items():
        line = strength.command(name)
        assert (
            line.startswith("sushigo tournament")
            and f"--results benchmarks/strength_results/{name}.jsonl" in line
        )
        assert group
