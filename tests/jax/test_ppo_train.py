"""``sushigo train --backend jax``: a tiny run writes weights the ``neural`` bot plays, and the
command's errors are one line (a checkpoint where weights are wanted names ``weights.npz``)."""

from __future__ import annotations

import csv
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")

from click.testing import CliRunner

from sushigo.bots import make_bot
from sushigo.cli import main
from sushigo.game import new_game
from sushigo.runner import play

#: test_ppo.SHARED's configuration, so that the compiled iteration is shared between the two files
TINY = ["--envs", "4", "--rollout", "8", "--hidden", "8", "--minibatches", "2", "--epochs", "1"]
TINY += ["--opponent", "greedy", "-q"]


@pytest.mark.slow
def test_a_tiny_run_writes_weights_the_neural_bot_plays(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "run"
    args = ["train", "--backend", "jax", "--out", str(out), "--iterations", "2", "--eval-games", "2", *TINY]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "weights in" in result.output and "vs greedy" in result.output
    meta = json.loads(str(np.load(out / "weights.npz")["meta"]))
    assert meta["trained_by"] == "sushigo train --backend jax" and meta["iteration"] == 2
    assert meta["env_steps"] == 2 * 4 * 8 and meta["config"]["hidden"] == [8]
    with (out / "curve.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [r["iteration"] for r in rows] == ["1", "2"] and rows[-1]["eval_vs_greedy"] != ""
    weights = str(out / "weights.npz")
    for players, options in ((2, {}), (4, {"dummy": False, "soy_sauce": True})):
        bots = [make_bot("neural", seed=1, weights=weights)]
        bots += [make_bot("random", seed=2 + s) for s in range(players - 1)]
        assert play(new_game("sushi-go", players, seed=1, **options), bots).is_over()
    again = runner.invoke(main, args)
    assert again.exit_code != 0 and "already holds a run" in again.output
    assert "Traceback" not in again.output and len(again.output.strip().splitlines()) == 1


def _fake_checkpoint(folder: Path) -> Path:
    """A file shaped as ``torch.save`` writes (a zip holding ``data.pkl``) without needing PyTorch."""
    folder.mkdir()
    path = folder / "checkpoint.pt"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("checkpoint/data.pkl", b"\x80\x02}q\x00.")
    return path


@pytest.mark.parametrize("option", ["--init-weights", "--opponent"])
def test_a_checkpoint_where_weights_are_wanted_names_weights_npz(tmp_path: Path, option: str) -> None:
    ckpt = _fake_checkpoint(tmp_path / "run")
    result = CliRunner().invoke(
        main, ["train", "--backend", "jax", option, str(ckpt), "--out", str(tmp_path / "x")]
    )
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert f"pass {tmp_path / 'run' / 'weights.npz'}" in result.output
    assert "training checkpoint" in result.output
    assert not (tmp_path / "x").exists()


def test_options_of_the_other_backend_are_refused(tmp_path: Path) -> None:
    runner = CliRunner()
    out = ["--out", str(tmp_path / "x")]
    bad = runner.invoke(main, ["train", "--backend", "jax", "--workers", "2", *out])
    assert bad.exit_code != 0 and "--workers is not an option of --backend jax" in bad.output
    bad = runner.invoke(main, ["train", "--players", "3", *out])
    assert bad.exit_code != 0 and "--players is not an option of --backend torch" in bad.output
    bad = runner.invoke(main, ["train", "--backend", "jax", "--variant", "dummy", "--players", "4", *out])
    assert bad.exit_code != 0 and "Traceback" not in bad.output and "dummy" in bad.output
    bad = runner.invoke(main, ["train", "--backend", "jax", "--variant", "nonsense", *out])
    assert bad.exit_code != 0 and "Traceback" not in bad.output and "nonsense" in bad.output
    assert not (tmp_path / "x").exists()


def test_minutes_alone_bounds_a_jax_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sushigo.jax.train as jt

    seen: dict[str, Any] = {}

    def fake(cfg: Any, out: Any, **kwargs: Any) -> dict[str, Any]:
        seen.update(kwargs)
        return {"iteration": 0}

    monkeypatch.setattr(jt, "train", fake)
    result = CliRunner().invoke(
        main, ["train", "--backend", "jax", "--minutes", "5", "--out", str(tmp_path / "x")]
    )
    assert result.exit_code == 0, result.output
    assert seen["iterations"] is None and seen["max_seconds"] == 300.0
    CliRunner().invoke(main, ["train", "--backend", "jax", "--out", str(tmp_path / "y")])
    assert seen["iterations"] == 50 and seen["max_seconds"] is None


@pytest.mark.slow
def test_the_time_limit_alone_stops_a_run(tmp_path: Path) -> None:
    from sushigo.jax.ppo import PPOConfig
    from sushigo.jax.train import JaxTrainingError, train

    lines: list[str] = []
    cfg = PPOConfig(players=2, envs=4, rollout=8, hidden=(8,), opponent="greedy", epochs=1, minibatches=2)
    last = train(cfg, tmp_path / "a", iterations=None, max_seconds=1e-3, eval_games=0, log=lines.append)
    assert last["iteration"] == 1 and any("time limit" in line for line in lines)
    assert (tmp_path / "a" / "weights.npz").exists()
    with pytest.raises(JaxTrainingError, match="time limit"):
        train(cfg, tmp_path / "b", iterations=None, max_seconds=None)


@pytest.mark.slow
def test_a_seed_gives_the_same_weights(tmp_path: Path) -> None:
    from sushigo.jax.ppo import PPOConfig
    from sushigo.jax.train import train, weights_arrays

    cfg = PPOConfig(players=2, envs=4, rollout=8, hidden=(8,), opponent="greedy", epochs=1, minibatches=2)
    for name, seed in (("a", 3), ("b", 3), ("c", 4)):
        train(cfg, tmp_path / name, seed=seed, iterations=2, eval_games=0)
    a, b, c = (weights_arrays(tmp_path / n / "weights.npz") for n in "abc")
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
    assert any(not np.array_equal(a[k], c[k]) for k in a)
