"""benchmarks/strength.py's equal-time measure at a tiny size in every game: the ratio it prints is
what the equal-CPU tables' ``alpha`` budgets come from, so it must keep running for all three."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("strength", ROOT / "benchmarks" / "strength.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", ["sushi-go", "sushi-roll", "sushi-go-party"])
def test_the_cpu_ratio_is_measured_on_searched_moves_of_every_game(game: str) -> None:
    strength = _load()
    _, tables = strength.CPU_RATIO_TABLES[game]
    players, options = tables[0]
    ratio, moves = strength.cpu_ratio(players, games=1, iterations=4, game=game, **options)
    assert moves > 0 and 0.0 < ratio < 100.0


def test_every_run_has_a_command_and_a_group() -> None:
    strength = _load()
    for name, (group, _) in strength.RUNS.items():
        line = strength.command(name)
        assert line.startswith("sushigo tournament") and f"--results benchmarks/strength_results/{name}.jsonl" in line
        assert group
