"""``sushigo simulate --records`` names each seat's bot, its options and seed; the records still load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sushigo.cli import main
from sushigo.game import load_record
from sushigo.simulate import SimulationError, run_simulation


@pytest.mark.parametrize("game", ["sushi-go", "sushi-roll", "sushi-go-party"])
def test_records_name_every_seats_bot_and_options(game: str, tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = CliRunner().invoke(
        main,
        [
            "simulate", "--game", game, "--players", "3", "--games", "2", "--seed", "4",
            "--bots", "mcts,random", "--bot-option", "mcts.iterations=3", "--records", str(out), "-q",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    for line in lines:
        record = json.loads(line)
        bots = record["bots"]
        assert [b["name"] for b in bots] == ["mcts", "random", "mcts"]
        assert [b["options"] for b in bots] == [{"iterations": 3}, {}, {"iterations": 3}]
        assert [b["seed"] - record["seed"] for b in bots] == [0, 1, 2]
        assert load_record(record).is_over()
        old = {k: v for k, v in record.items() if k != "bots"}
        assert load_record(old).score_report() == load_record(record).score_report()


def test_options_for_a_bot_no_seat_plays_are_refused() -> None:
    with pytest.raises(SimulationError, match="no seat plays"):
        run_simulation(
            game="sushi-go", players=2, games=1, seed=0, options={}, bot_specs=["random"],
            bot_options={"mcts": {"iterations": 2}},
        )  # fmt: skip
    result = CliRunner().invoke(main, ["simulate", "--bots", "random", "--bot-option", "mcts.iterations=2"])
    assert result.exit_code != 0 and "not in --bots" in result.output and "Traceback" not in result.output
