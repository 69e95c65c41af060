"""``sushigo dataset``: a tiny run read back (rows, masks, actions, outcomes), and its clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("pyarrow")
np = pytest.importorskip("numpy")

import pyarrow.parquet as pq  # noqa: E402

from sushigo.cli import main  # noqa: E402
from sushigo.dataset import DatasetError, DatasetSpec, read_metadata, write_dataset  # noqa: E402
from sushigo.game import load_record  # noqa: E402
from sushigo.simulate import run_simulation  # noqa: E402


def test_a_tiny_dataset_reads_back_and_matches_simulates_games(tmp_path: Path) -> None:
    out = tmp_path / "games.parquet"
    args = ["--players", "3", "--games", "3", "--seed", "5", "--bot", "heuristic"]
    result = CliRunner().invoke(main, ["dataset", *args, "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    table = pq.read_table(out)
    rows = table.to_pydict()
    # games x rounds x seats x decisions (9 cards; the forced last one is not a decision)
    assert summary["rows"] == table.num_rows == 3 * 3 * 3 * 8
    meta = read_metadata(str(out))
    assert meta["bots"] == ["heuristic"] * 3 and meta["actions"] == "compact"
    obs = np.asarray(rows["observation"], dtype=np.float32)
    mask = np.asarray(rows["legal_mask"], dtype=bool)
    assert obs.shape == (table.num_rows, meta["obs_size"]) and mask.shape == (table.num_rows, meta["action_size"])
    actions = np.asarray(rows["action"])
    assert mask[np.arange(len(actions)), actions].all()
    # the same games as `simulate` with the same seed and bots
    records = tmp_path / "games.jsonl"
    run_simulation(
        game="sushi-go", players=3, games=3, seed=5, options={}, bot_specs=["heuristic"], records_path=str(records)
    )
    for game_id, line in enumerate(records.read_text(encoding="utf-8").splitlines()):
        totals = load_record(json.loads(line)).score_report()["totals"]
        for seat in range(3):
            scores = {
                s
                for g, st, s in zip(rows["game_id"], rows["seat"], rows["final_score"])
                if g == game_id and st == seat
            }
            assert scores == {totals[seat]}
    outcome = np.asarray(rows["outcome"])
    rank = np.asarray(rows["rank"])
    assert set(outcome[rank == 1]) <= {0, 1} and (outcome[rank > 1] == -1).all()
    assert (np.asarray(rows["margin"])[outcome == 1] > 0).all()


def test_sushi_roll_rows_and_dense_codes(tmp_path: Path) -> None:
    out = tmp_path / "roll.parquet"
    summary = write_dataset(
        DatasetSpec(game="sushi-roll", players=2, games=1, bots=["greedy", "random"], actions="dense"), str(out)
    )
    table = pq.read_table(out)
    assert summary["rows"] == table.num_rows > 10
    assert set(table.column("bot").to_pylist()) == {"greedy", "random"}


def test_clear_errors(tmp_path: Path) -> None:
    out = str(tmp_path / "x.parquet")
    with pytest.raises(DatasetError, match="bound"):
        write_dataset(DatasetSpec(game="sushi-go", players=4, games=1000, bots=["random"], max_bytes=1000), out)
    with pytest.raises(DatasetError, match="several action codes"):
        write_dataset(DatasetSpec(game="sushi-go-party", players=3, games=1, bots=["random"]), out)
    with pytest.raises(DatasetError, match="between 1 and"):
        write_dataset(DatasetSpec(game="sushi-go", players=3, games=0), out)
    assert not (tmp_path / "x.parquet").exists() and not (tmp_path / "x.parquet.partial").exists()
    runner = CliRunner()
    for args, words in [
        (["--bot", "nosuchbot"], "nosuchbot"),
        (["--bot", "random", "--bot-option", "mcts.iterations=3"], "not in --bots"),
        (["--bot", "random", "--max-gib", "0.001", "--games", "100000"], "bound"),
        (["--game", "sushi-go-party", "--players", "3", "--bot", "random"], "several action codes"),
    ]:
        result = runner.invoke(main, ["dataset", *args, "--out", out])
        assert result.exit_code != 0 and words in result.output and "Traceback" not in result.output, result.output
    assert not (tmp_path / "x.parquet").exists()
    with pytest.raises(DatasetError, match="not a sushigo dataset"):
        bad = tmp_path / "plain.parquet"
        import pyarrow as pa

        pq.write_table(pa.table({"a": [1]}), bad)
        read_metadata(str(bad))


def test_the_reading_example_of_docs_dataset_md_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    doc = (Path(__file__).resolve().parents[2] / "docs" / "dataset.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```python\n(.*?)```", doc, flags=re.S)
    monkeypatch.chdir(tmp_path)
    write_dataset(DatasetSpec(game="sushi-go", players=4, games=2, bots=["heuristic"]), "alpha4p.parquet")
    namespace: dict = {}
    exec(compile(block, "docs/dataset.md", "exec"), namespace)
    obs, mask, action = namespace["obs"], namespace["mask"], namespace["action"]
    assert len(obs) == len(mask) == len(action) > 0 and obs.shape[1] == namespace["meta"]["obs_size"]
    assert mask[np.arange(len(action)), action].all()
