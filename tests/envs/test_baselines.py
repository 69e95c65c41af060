"""benchmarks/baselines.py end to end at a tiny size: both trainers, every opponent, the report."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

pytest.importorskip("sb3_contrib")
pytest.importorskip("open_spiel")
pytest.importorskip("tree")  # dm-tree: OpenSpiel's PyTorch DQN imports it


@pytest.mark.parametrize("algo", ["ppo", "dqn"])
def test_the_baseline_command_runs_end_to_end(
    algo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], load_benchmark: Callable[[str], Any]
) -> None:
    baselines: object = load_benchmark("baselines")
    args = ["--algo", algo, "--players", "2", "--train-minutes", "0.03", "--deals", "1", "--mcts-deals", "1",
            "--results-dir", str(tmp_path), "--models-dir", str(tmp_path / "models")]  # fmt: skip
    assert baselines.main(args) == 0  # type: ignore[attr-defined]
    doc = json.loads((tmp_path / f"{algo}_2p.json").read_text(encoding="utf-8"))
    assert [r["opponent"] for r in doc["results"]] == ["random", "heuristic", "mcts"]
    assert all(r["games"] == 2 and 0 <= r["ci95"][0] <= r["win_share"] <= r["ci95"][1] <= 1 for r in doc["results"])
    assert doc["training"]["env_steps"] > 0 and doc["seed"] == 0 and "--algo" in doc["command"]
    assert baselines.main(["--report", "--results-dir", str(tmp_path)]) == 0  # type: ignore[attr-defined]
    assert "| 2 |" in capsys.readouterr().out


def test_a_bot_trained_elsewhere_is_measured_the_same_way(
    tmp_path: Path, load_benchmark: Callable[[str], Any]
) -> None:
    """How the JAX PPO row is filled: its checkpoint played by the ``neural`` bot (here: a search bot)."""
    baselines: object = load_benchmark("baselines")
    args = ["--algo", "bot", "--bot", "mcts", "--bot-option", "iterations=5", "--label", "JAX PPO",
            "--budget", "5 min", "--players", "2", "--deals", "1", "--opponents", "random",
            "--results-dir", str(tmp_path)]  # fmt: skip
    assert baselines.main(args) == 0  # type: ignore[attr-defined]
    doc = json.loads((tmp_path / "jax_ppo_2p.json").read_text(encoding="utf-8"))
    assert doc["label"] == "JAX PPO" and doc["training"]["options"] == {"iterations": 5}
    assert doc["results"][0]["games"] == 2

