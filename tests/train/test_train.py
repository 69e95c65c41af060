"""``sushigo train``: a short run completes, checkpoints, resumes exactly and feeds the bots."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from click.testing import CliRunner

from sushigo.bots import make_bot
from sushigo.cli import main
from sushigo.game import new_game
from sushigo.runner import play
from sushigo.train import TrainConfig, TrainingError, train
from sushigo.train.selfplay import collect

SMALL = TrainConfig(
    seed=3,
    iterations=2,
    steps=150,
    hidden=(32,),
    warm_start=150,
    warm_epochs=1,
    eval_deals=1,
    checkpoint_every=1,
    snapshot_every=1,
    parallel=4,
)


def _weights(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {k: data[k] for k in data.files if k != "meta"}


def test_short_run_writes_a_checkpoint_that_the_bots_load(tmp_path: Path) -> None:
    last = train(SMALL, tmp_path, progress=False)
    assert last["iteration"] == 2 and last["decisions"] >= 2 * 150
    for name in ("checkpoint.pt", "weights.npz", "curve.csv", "curve.png"):
        assert (tmp_path / name).stat().st_size > 0
    with (tmp_path / "curve.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [r["iteration"] for r in rows] == ["0", "1", "2"]  # the warm start, then each iteration
    assert 0.0 <= float(rows[-1]["eval_2p"]) <= 1.0 and float(rows[-1]["steps_per_s"]) > 0
    weights = str(tmp_path / "weights.npz")
    for players, options in ((2, {"dummy": True}), (4, {"soy_sauce": True})):
        bots = [
            make_bot("neural", seed=1, weights=weights),
            make_bot("alpha", seed=2, weights=weights, iterations=8),
        ]
        bots += [make_bot("random", seed=3 + s) for s in range(players - 2)]
        assert play(new_game("sushi-go", players, seed=1, **options), bots).is_over()


def test_a_resumed_run_equals_an_uninterrupted_one(tmp_path: Path) -> None:
    train(SMALL, tmp_path / "straight", progress=False)
    train(replace(SMALL, iterations=1), tmp_path / "split", progress=False)
    train(SMALL, tmp_path / "split", resume=True, progress=False)
    a, b = _weights(tmp_path / "straight" / "weights.npz"), _weights(tmp_path / "split" / "weights.npz")
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])


def test_runs_refuse_to_mix(tmp_path: Path) -> None:
    with pytest.raises(TrainingError, match="nothing to resume"):
        train(SMALL, tmp_path, resume=True, progress=False)
    train(replace(SMALL, iterations=1, warm_start=0), tmp_path, progress=False)
    with pytest.raises(TrainingError, match="--resume"):
        train(replace(SMALL, warm_start=0), tmp_path, progress=False)
    with pytest.raises(TrainingError, match="other options"):
        train(replace(SMALL, warm_start=0, lr=0.1), tmp_path, resume=True, progress=False)


def test_collect_gives_ppo_targets() -> None:
    from sushigo.train.learner import PolicyValue

    params = PolicyValue((16,)).arrays()
    batch = collect(params, [params], 60, seed=1, parallel=3)
    assert len(batch) >= 60 and batch.games >= 3
    assert batch.valid[np.arange(len(batch)), batch.chosen].all()  # every taken pick was a candidate
    assert np.all(batch.logp <= 0) and np.isfinite(batch.ret).all()
    np.testing.assert_allclose(batch.ret, batch.adv + batch.value, atol=1e-5)


def test_train_command(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "run"
    args = ["train", "--out", str(out), "--iterations", "1", "--steps", "40", "--warm-start", "0"]
    args += ["--eval-deals", "1", "--hidden", "16", "-q"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "weights in" in result.output and (out / "weights.npz").exists()
    again = runner.invoke(main, args)
    assert again.exit_code != 0 and "Traceback" not in again.output and "--resume" in again.output
    bad = runner.invoke(main, [*args[:3], "--hidden", "wide"])
    assert bad.exit_code != 0 and "--hidden" in bad.output


def test_bad_folders_and_checkpoints_are_one_line_errors(tmp_path: Path) -> None:
    missing = tmp_path / "none"
    with pytest.raises(TrainingError, match="nothing to resume"):
        train(SMALL, missing, resume=True, progress=False)
    assert not missing.exists()  # nothing is created for a failed resume
    afile = tmp_path / "file"
    afile.write_text("x")
    with pytest.raises(TrainingError, match="is a file"):
        train(SMALL, afile, progress=False)
    torn = tmp_path / "torn"
    torn.mkdir()
    (torn / "checkpoint.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(TrainingError, match="cannot read"):
        train(SMALL, torn, resume=True, progress=False)


def test_with_share_weighs_one_setting_and_keeps_the_others_ratios() -> None:
    from sushigo.train.selfplay import DEFAULT_SETTINGS, with_share

    out = with_share(DEFAULT_SETTINGS, 2, 0.7)
    weights = [w for _, _, w in out]
    assert sum(weights) == pytest.approx(1.0)
    plain2 = [w for p, o, w in out if p == 2 and not o]
    assert plain2 == [pytest.approx(0.7)]
    # the others keep their proportions: 4p stays 27/12 of 3p
    w3 = next(w for p, o, w in out if p == 3 and not o)
    w4 = next(w for p, o, w in out if p == 4 and not o)
    assert w4 / w3 == pytest.approx(0.27 / 0.12)
    with pytest.raises(ValueError, match="between 0 and 1"):
        with_share(DEFAULT_SETTINGS, 2, 1.5)
    with pytest.raises(ValueError, match="no plain 7-player"):
        with_share(DEFAULT_SETTINGS, 7, 0.5)


def test_with_shares_weighs_several_sizes_at_once() -> None:
    from sushigo.train.selfplay import DEFAULT_SETTINGS, with_shares

    out = with_shares(DEFAULT_SETTINGS, {5: 0.4, 3: 0.2})
    assert sum(w for _, _, w in out) == pytest.approx(1.0)
    plain = {p: w for p, o, w in out if not o}
    assert plain[5] == pytest.approx(0.4) and plain[3] == pytest.approx(0.2)
    # the rest (0.4) keeps its proportions: 2p stays 40/27 of 4p, the variants theirs
    assert plain[2] / plain[4] == pytest.approx(0.40 / 0.27)
    assert plain[2] == pytest.approx(0.4 * 0.40 / (1 - 0.08 - 0.12))
    with pytest.raises(ValueError, match="more than 1"):
        with_shares(DEFAULT_SETTINGS, {5: 0.7, 4: 0.5})


def test_a_run_can_start_from_a_network(tmp_path: Path) -> None:
    """Fine-tuning: iteration 0 is the given network (no warm start), and a resume keeps going."""
    from sushigo.train.selfplay import DEFAULT_SETTINGS, with_share

    train(replace(SMALL, iterations=1), tmp_path / "base", progress=False)
    start = tmp_path / "base" / "weights.npz"
    cfg = replace(SMALL, iterations=0, init_weights=str(start), settings=with_share(DEFAULT_SETTINGS, 2, 0.9))
    train(cfg, tmp_path / "zero", progress=False)
    a, b = _weights(start), _weights(tmp_path / "zero" / "weights.npz")
    for k in a:
        np.testing.assert_allclose(a[k], b[k], atol=1e-6)
    with (tmp_path / "zero" / "curve.csv").open() as handle:
        assert list(csv.DictReader(handle)) == []  # no warm start row: the network is the start
    train(replace(cfg, iterations=2), tmp_path / "zero", resume=True, progress=False)
    moved = _weights(tmp_path / "zero" / "weights.npz")
    assert any(not np.allclose(a[k], moved[k]) for k in a)  # the updates changed it
    with pytest.raises(TrainingError, match="other options"):
        train(
            replace(cfg, iterations=3, settings=DEFAULT_SETTINGS),
            tmp_path / "zero",
            resume=True,
            progress=False,
        )
    wrong = replace(cfg, hidden=(16,))
    with pytest.raises(TrainingError, match="layer w0"):
        train(wrong, tmp_path / "wrong", progress=False)


def test_train_command_fine_tunes(tmp_path: Path) -> None:
    runner = CliRunner()
    base = tmp_path / "base"
    args = ["train", "--iterations", "1", "--steps", "40", "--warm-start", "0", "--eval-deals", "1"]
    args += ["--hidden", "16", "-q"]
    assert runner.invoke(main, [*args, "--out", str(base)]).exit_code == 0
    tuned = [*args, "--out", str(tmp_path / "ft"), "--init-weights", str(base / "weights.npz")]
    tuned += ["--two-player-share", "0.8", "--mix", "0.5,0.2,0.3"]
    result = runner.invoke(main, tuned)
    assert result.exit_code == 0, result.output
    meta = json.loads(str(np.load(tmp_path / "ft" / "weights.npz")["meta"]))
    assert meta["config"]["mix"] == {"reference": 0.5, "self": 0.2, "pool": 0.3}
    assert meta["config"]["init_weights"].endswith("weights.npz")
    assert meta["config"]["settings"][0][:2] == [2, {}] and meta["config"]["settings"][0][2] == pytest.approx(
        0.8
    )
    several = [*args, "--out", str(tmp_path / "ft5"), "--init-weights", str(base / "weights.npz")]
    result = runner.invoke(main, [*several, "--iterations", "0", "--share", "5=0.5", "--share", "3=0.25"])
    assert result.exit_code == 0, result.output
    meta = json.loads(str(np.load(tmp_path / "ft5" / "weights.npz")["meta"]))
    plain = {p: w for p, o, w in meta["config"]["settings"] if not o}
    assert plain[5] == pytest.approx(0.5) and plain[3] == pytest.approx(0.25)
    for wrong, says in (
        (["--share", "5"], "players=share"),
        (["--share", "5=0.9", "--share", "4=0.3"], "more than 1"),
    ):
        bad = runner.invoke(main, [*args, "--out", str(tmp_path / "y"), *wrong])
        assert bad.exit_code != 0 and says in bad.output and "Traceback" not in bad.output
        assert not (tmp_path / "y").exists()
    bad = runner.invoke(main, [*args, "--out", str(tmp_path / "x"), "--mix", "1,2"])
    assert bad.exit_code != 0 and "--mix" in bad.output and "Traceback" not in bad.output
