"""``sushigo replay RECORD --analyse``: a table of the seat's decisions, exit 0; bad input is one line,
exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sushigo.bots import make_bot
from sushigo.cli import main
from sushigo.game import new_game
from sushigo.runner import play


def _run(args: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, args, input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def record(tmp_path: Path) -> Path:
    state = new_game("sushi-go", 2, 4)
    play(state, [make_bot("greedy", seed=i) for i in range(2)])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.to_record(names=["Ann", "Bob"])))  # type: ignore[call-arg]
    return path


def test_the_analysis_is_printed_as_a_table(record: Path) -> None:
    code, out, err = _run(["replay", str(record), "--analyse", "--seat", "1", "--budget", "1"])
    assert code == 0, err
    assert "analysis of Bob (seat 1)" in out and "preferred" in out and "cost" in out
    assert "decisions" in out and "sampled deals per decision" in " ".join(out.split())


def test_the_analysis_as_json_is_the_engines_document(record: Path) -> None:
    code, out, _ = _run(["replay", str(record), "--analyse", "--budget", "1", "--json"])
    doc = json.loads(out)
    assert code == 0 and doc["format"] == "sushigo-analysis/1" and doc["seat"] == 0 and doc["name"] == "Ann"
    assert len(doc["decisions"]) == doc["summary"]["decisions"] > 20


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--seat", "2"], "no seat 2"),
        (["--seat", "-1"], "no seat -1"),
        (["--budget", "0"], "budget"),
        (["--budget", "100000"], "budget"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(record: Path, args: list[str], needle: str) -> None:
    code, out, err = _run(["replay", str(record), "--analyse", *args])
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in out + err


def test_bad_inputs_are_one_line_and_exit_2(tmp_path: Path) -> None:
    running = new_game("sushi-go", 2, 1)
    for s in running.to_act():
        running.submit(s, running.legal_actions(s)[0])
    cases = {
        str(tmp_path / "missing.json"): "cannot read",
        "-": "not over",
    }
    for path, needle in cases.items():
        stdin = json.dumps(running.to_record()) if path == "-" else None
        code, _out, err = _run(["replay", path, "--analyse"], stdin)
        assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err
    for text, needle in (("{", "not valid JSON"), ('{"a": 1}', "sushigo-record/1"), ("[1, 2]", "record")):
        code, _, err = _run(["replay", "-", "--analyse"], text)
        assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("columns", [80, 140])
def test_the_table_fits_the_terminal(record: Path, columns: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80 columns every line fits and the best three choices are left out (they would wrap each row
    into five lines); from 120 columns they have their own column."""
    monkeypatch.setenv("COLUMNS", str(columns))
    code, out, err = _run(["replay", str(record), "--analyse", "--seat", "0", "--budget", "1"])
    assert code == 0, err
    table = out.split("\n\n")[0] if "\n\n" in out else out
    assert max(len(line) for line in table.splitlines()) <= columns
    assert ("best three" in out) == (columns >= 120)
