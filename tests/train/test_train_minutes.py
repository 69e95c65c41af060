"""``sushigo train --minutes N`` alone bounds a run (issue 24: it used to stop at the default 50
iterations), and a checkpoint where weights are wanted is a one-line error naming ``weights.npz``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")

from click.testing import CliRunner

import sushigo.train as train_pkg
from sushigo.cli import main
from sushigo.train import TrainConfig, TrainingError, train


def test_minutes_alone_lifts_the_iteration_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[TrainConfig, dict[str, Any]]] = []

    def fake(cfg: TrainConfig, out: Any, **kwargs: Any) -> dict[str, Any]:
        seen.append((cfg, kwargs))
        return {"iteration": 0}

    monkeypatch.setattr(train_pkg, "train", fake)
    runner = CliRunner()
    out = ["--out", str(tmp_path / "x"), "-q"]
    assert runner.invoke(main, ["train", "--minutes", "5", *out]).exit_code == 0
    assert runner.invoke(main, ["train", *out]).exit_code == 0
    assert runner.invoke(main, ["train", "--minutes", "5", "--iterations", "7", *out]).exit_code == 0
    (a, ka), (b, kb), (c, kc) = seen
    assert a.iterations is None and ka["max_seconds"] == 300.0
    assert b.iterations == 50 and kb["max_seconds"] is None
    assert c.iterations == 7 and kc["max_seconds"] == 300.0


def test_a_time_limit_alone_stops_a_torch_run(tmp_path: Path) -> None:
    cfg = TrainConfig(seed=1, iterations=None, steps=40, hidden=(8,), warm_start=0, eval_deals=1, parallel=4)
    lines: list[str] = []
    last = train(cfg, tmp_path / "a", progress=False, max_seconds=1e-3, log=lines.append)
    assert last["iteration"] == 1 and any("time limit" in line for line in lines)
    assert (tmp_path / "a" / "weights.npz").exists()
    with pytest.raises(TrainingError, match="time limit"):
        train(replace(cfg, iterations=None), tmp_path / "b", progress=False)


def test_a_checkpoint_given_as_init_weights_names_weights_npz(tmp_path: Path) -> None:
    runner = CliRunner()
    run = tmp_path / "run"
    args = ["train", "--iterations", "1", "--steps", "40", "--warm-start", "0", "--eval-deals", "1"]
    args += ["--hidden", "8", "-q", "--out", str(run)]
    assert runner.invoke(main, args).exit_code == 0
    ckpt = run / "checkpoint.pt"
    bad = runner.invoke(main, [*args[:-1], str(tmp_path / "ft"), "--init-weights", str(ckpt)])
    assert bad.exit_code != 0 and "Traceback" not in bad.output
    assert f"pass {run / 'weights.npz'}" in bad.output and "training checkpoint" in bad.output
