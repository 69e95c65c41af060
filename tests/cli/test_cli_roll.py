"""The commands with Sushi Roll: scoring trays, replaying records, simulating with a dice file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from sushigo.cli import main

TRAYS = {
    "game": "sushi-roll",
    "players": 2,
    "rounds": [[["wasabi", "salmon_nigiri", "tempura"], ["maki_3", "pudding_2"]]],
    "tokens": [{"menu": 1, "chopsticks": 2}, {"menu": 3, "chopsticks": 0}],
}

ALL_SASHIMI = """
format = "sushi-roll-dice/1"
name = "all sashimi appetizers"
[dice.appetizer]
count = 10
faces = ["sashimi", "sashimi", "sashimi", "sashimi", "sashimi", "sashimi"]
[dice.maki]
count = 6
faces = ["maki_1", "maki_1", "maki_2", "maki_2", "maki_3", "maki_3"]
[dice.nigiri]
count = 5
faces = ["egg_nigiri", "egg_nigiri", "salmon_nigiri", "salmon_nigiri", "squid_nigiri", "squid_nigiri"]
[dice.special]
count = 5
faces = ["wasabi", "wasabi", "chopsticks", "chopsticks", "menu", "menu"]
[dice.pudding]
count = 4
faces = ["pudding", "pudding", "pudding_2", "pudding_2", "pudding_3", "pudding_3"]
"""


def run(args: list[str], stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, args, input=stdin)
    return result.exit_code, result.output


def test_score_sushi_roll_trays_formats_example() -> None:
    code, out = run(["score", "--json"], json.dumps(TRAYS))
    assert code == 0
    result = json.loads(out)
    assert result["game"] == "sushi-roll"
    assert result["rounds"][0]["points"][0]["nigiri"] == 6 and result["rounds"][0]["points"][1]["maki"] == 6
    assert result["pudding_counts"] == [0, 2]


def test_simulate_sushi_roll_records_replay(tmp_path: Path) -> None:
    records = tmp_path / "roll.jsonl"
    code, out = run(
        ["simulate", "--game", "sushi-roll", "-p", "3", "-n", "4", "--records", str(records), "--json"]
    )
    assert code == 0, out
    code, out = run(["replay", str(records), "--json"])
    assert code == 0 and all(json.loads(x)["complete"] for x in out.splitlines())


def test_simulate_with_a_dice_file_changes_the_outcome(tmp_path: Path) -> None:
    dice = tmp_path / "dice.toml"
    dice.write_text(ALL_SASHIMI)
    args = ["simulate", "--game", "sushi-roll", "-p", "2", "-n", "6", "--json", "--seed", "4"]
    code, out = run([*args, "--dice", str(dice)])
    assert code == 0, out
    loaded = json.loads(out)["mean_by_category"]
    assert sum(loaded["dumpling"]) == 0 and sum(loaded["tempura"]) == 0 and sum(loaded["sashimi"]) > 0


def test_bad_dice_file_is_a_clear_error(tmp_path: Path) -> None:
    dice = tmp_path / "dice.json"
    dice.write_text(json.dumps({"dice": {"appetizer": {"count": 3, "faces": ["x"] * 6}}}))
    code, out = run(["simulate", "--game", "sushi-roll", "-p", "2", "-n", "1", "--dice", str(dice)])
    assert code != 0 and "dice" in out and "Traceback" not in out


def test_variant_flags_are_refused_for_sushi_roll() -> None:
    code, out = run(["simulate", "--game", "sushi-roll", "--dummy"])
    assert code != 0 and "--dummy is for --game sushi-go, not Sushi Roll options" in out
    code, out = run(["simulate", "--game", "sushi-roll", "--menu", "sushi_go", "--soy-sauce"])
    assert code != 0 and "--soy-sauce is for --game sushi-go" in out


def test_console_script_is_installed() -> None:
    exe = Path(sys.executable).with_name("sushigo")
    out = subprocess.run([str(exe), "--help"], capture_output=True, text=True, check=True).stdout
    for command in ("score", "replay", "simulate"):
        assert command in out
