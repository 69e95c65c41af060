"""No traceback reaches a user: each mistake of issue 10 ends in one line naming what and where.

Every test asserts the message, the non-zero exit and that no traceback is printed; the "not
installed" cases hide the module (``sys.modules[name] = None``), in this process or in a new one.
"""

from __future__ import annotations

import json
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest

import sushigo.cli as cli_module
from sushigo.errors import EXTRA_OF_MODULE

Run = Callable[..., Any]

CRASH_BOT = textwrap.dedent(
    """
    from sushigo.bots import BaseBot


    class Crash(BaseBot):
        name = "crash"

        def act(self, observation, legal):
            if self.rng.random() < 0.3:
                raise ZeroDivisionError("boom")
            return legal[0]
    """
)


def test_simulate_records_into_a_missing_folder(cli: Run, one_line_error: Run, tmp_path: Path) -> None:
    target = tmp_path / "missing" / "x.jsonl"
    out = cli(["simulate", "-n", "2", "-q", "--records", str(target)])
    one_line_error(out, "--records", f"the folder {target.parent} does not exist")
    assert out.code == 2 and not target.parent.exists()


def test_output_path_that_is_a_folder_or_under_a_file(cli: Run, one_line_error: Run, tmp_path: Path) -> None:
    one_line_error(cli(["simulate", "-n", "1", "-q", "--records", str(tmp_path)]), "is a folder, not a file")
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    out = cli(["simulate", "-n", "1", "-q", "--records", str(plain / "x.jsonl")])
    one_line_error(out, f"{plain} is not a folder")


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_a_module_that_is_not_a_bot_class(cli: Run, one_line_error: Run, command: str) -> None:
    args = [command, "-p", "2", "-n", "1", "-q", "--bots", "os:path"]
    if command == "tournament":
        args += ["-j", "1"]
    one_line_error(cli(args), "'os:path' is not a bot class: path in os is a module")


@pytest.mark.parametrize("option", ["--csv", "--plot", "--results"])
def test_tournament_output_paths_are_checked_before_any_game(
    cli: Run, one_line_error: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    import sushigo.tournament as tournament_pkg

    def no_games(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the tournament started although an output path is wrong")

    monkeypatch.setattr(tournament_pkg, "run_tournament", no_games)
    target = tmp_path / "missing" / "out.file"
    out = cli(["tournament", "-p", "2", "-n", "2", "-j", "1", "-q", option, str(target)])
    one_line_error(out, option, "does not exist")


def test_plot_without_matplotlib_is_refused_before_the_run(
    cli: Run, one_line_error: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sushigo.tournament as tournament_pkg

    monkeypatch.setattr(tournament_pkg, "run_tournament", lambda *a, **k: pytest.fail("it ran"))
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out = cli(["tournament", "-p", "2", "-n", "2", "-j", "1", "-q", "--plot", str(tmp_path / "t.png")])
    one_line_error(out, "--plot needs matplotlib", "pip install 'sushigo[bots]'")
    assert not (tmp_path / "t.png").exists() and out.stdout == ""


def test_plot_without_matplotlib_in_a_new_process(sushigo: Run, one_line_error: Run, tmp_path: Path) -> None:
    start = time.perf_counter()
    out = sushigo(
        [
            "tournament",
            "-p",
            "2",
            "--bots",
            "mcts,random",
            "-n",
            "400",
            "-q",
            "--plot",
            str(tmp_path / "t.png"),
        ],
        hide=("matplotlib",),
    )
    one_line_error(out, "--plot needs matplotlib", "pip install 'sushigo[bots]'")
    assert time.perf_counter() - start < 30  # 400 mcts games would take minutes: none was played


def test_serve_on_a_core_only_install(sushigo: Run, one_line_error: Run) -> None:
    out = sushigo(["serve", "--port", "0"], hide=("uvicorn", "fastapi", "sqlalchemy"))
    one_line_error(out, "'sushigo serve' needs", "pip install 'sushigo[web]'")
    assert len(out.stderr.strip().splitlines()) == 1


def test_a_command_module_that_cannot_import_its_extra(
    cli: Run, one_line_error: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A command module importing an extra at its top (as a web command would) is still listed and
    # says which extra to install, even though the module itself cannot be imported.
    (tmp_path / "webcmd.py").write_text("import uvicorn\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    monkeypatch.setitem(cli_module.LAZY_COMMANDS, "webthing", ("webcmd", "webthing"))
    out = cli(["webthing", "--port", "1"])
    one_line_error(out, "'sushigo webthing' needs uvicorn", "pip install 'sushigo[web]'")
    listing = cli(["--help"])
    assert listing.code == 0 and "pip install 'sushigo[web]'" in listing.stdout


def test_an_unexpected_error_is_one_line_unless_debugging(
    cli: Run, one_line_error: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sushigo.simulate as simulate_module

    def broken(**kwargs: Any) -> Any:
        raise RuntimeError("something internal")

    monkeypatch.setattr(simulate_module, "run_simulation", broken)
    out = cli(["simulate", "-n", "1", "-q"])
    one_line_error(out, "failed unexpectedly: RuntimeError: something internal", "SUSHIGO_DEBUG=1")
    assert len(out.stderr.strip().splitlines()) == 1
    monkeypatch.setenv("SUSHIGO_DEBUG", "1")
    with pytest.raises(RuntimeError, match="something internal"):
        cli(["simulate", "-n", "1", "-q"])


def test_one_line_error_lets_click_and_interrupts_through() -> None:
    assert cli_module.one_line_error(click.ClickException("x"), "score") is None
    assert cli_module.one_line_error(KeyboardInterrupt(), "score") is None
    line = cli_module.one_line_error(FileNotFoundError(2, "No such file or directory", "/x/y"), "score")
    assert line is not None and line.message == "'sushigo score' cannot use /x/y: No such file or directory"


def test_a_bot_crash_under_two_workers_names_the_game_and_seed(
    sushigo: Run, one_line_error: Run, tmp_path: Path
) -> None:
    (tmp_path / "crashbot.py").write_text(CRASH_BOT)
    out = sushigo(
        ["tournament", "-p", "2", "-n", "8", "-j", "2", "-q", "--bots", "crashbot:Crash,random"], cwd=tmp_path
    )
    one_line_error(out, "failed: bot 'crashbot:Crash' in seat", "raised ZeroDivisionError: boom", "seed ")
    assert "game id " in out.stderr and "--replay-game " in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_tournament_without_openskill_says_so_instead_of_nan(
    cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "openskill", None)
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    args = ["tournament", "-p", "2", "--bots", "greedy,random", "-n", "4", "-j", "1", "-q"]
    out = cli([*args, "--json"])
    assert out.code == 0 and "NaN" not in out.stdout and "nan" not in out.stdout
    doc = json.loads(out.stdout)
    assert doc["bots"]["greedy"]["rating"] is None
    assert "pip install 'sushigo[bots]'" in doc["ratings_missing"]
    assert "ratings left out" in out.stderr and "pip install 'sushigo[bots]'" in out.stderr
    table = cli(args)
    assert table.code == 0 and "nan" not in table.stdout and "no ratings" in table.stdout
    assert "rating " not in table.stdout.splitlines()[2]  # no rating column header


def test_tournament_results_refuses_a_records_file(cli: Run, one_line_error: Run, tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    assert cli(["simulate", "-p", "2", "-n", "2", "-q", "--records", str(records)]).code == 0
    before = records.read_bytes()
    out = cli(["tournament", "-p", "2", "-n", "2", "-j", "1", "-q", "--results", str(records)])
    one_line_error(out, "is not a tournament results file")
    assert records.read_bytes() == before
    assert cli(["replay", str(records)]).code == 0  # still a good records file


def test_tournament_results_resumes_the_same_tournament(cli: Run, tmp_path: Path) -> None:
    results = tmp_path / "t.jsonl"
    args = ["tournament", "-p", "2", "--bots", "greedy,random", "-j", "1", "-q", "--results", str(results)]
    assert cli([*args, "-n", "2"]).code == 0
    assert cli([*args, "-n", "4"]).code == 0
    lines = [json.loads(x) for x in results.read_text().splitlines()]
    assert [x["type"] for x in lines] == ["header", "game", "game", "game", "game"]
    out = cli([*args[:-2], "--seed", "9", "--results", str(results), "-n", "4"])
    assert out.code != 0 and "another tournament (seed 0 there, 9 here)" in out.stderr


def test_unknown_bot_option_is_an_error_naming_bot_and_option(cli: Run, one_line_error: Run) -> None:
    args = ["tournament", "-p", "2", "--bots", "mcts,random", "-n", "1", "-j", "1", "-q"]
    out = cli([*args, "--bot-option", "mcts.iteratons=5"])
    one_line_error(out, "bot 'mcts' has no option 'iteratons'", "iterations")


def test_bots_help_lists_the_registry(cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    from sushigo import bots

    bots.bot_names()
    monkeypatch.setitem(bots.REGISTRY, ("brandnewbot", "sushi-go"), bots.RandomBot)
    for command in ("simulate", "tournament"):
        out = cli([command, "--help"])
        text = " ".join(out.stdout.split())
        assert out.code == 0
        for name in ("random", "greedy", "heuristic", "mcts", "brandnewbot"):
            assert name in text, (command, name)


def test_a_bot_crash_in_simulate_names_the_game_seed_and_seat(
    cli: Run, one_line_error: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "crashbot_sim.py").write_text(CRASH_BOT)
    monkeypatch.syspath_prepend(str(tmp_path))
    out = cli(["simulate", "-p", "2", "-n", "6", "-q", "--bots", "random,crashbot_sim:Crash"])
    one_line_error(out, "failed: bot 'crashbot_sim:Crash' in seat 2 raised ZeroDivisionError: boom")
    assert "(game seed " in out.stderr and "--seed 0 plays the same games again" in out.stderr


def test_a_bad_dice_file_stops_a_tournament_before_any_game(
    cli: Run, one_line_error: Run, tmp_path: Path
) -> None:
    dice = tmp_path / "dice.json"
    dice.write_text(json.dumps({"dice": 3}))
    args = ["tournament", "--game", "sushi-roll", "-p", "2", "-n", "2", "-j", "1", "-q", "--dice", str(dice)]
    out = cli(args)
    one_line_error(out, f"dice file '{dice}'")
    assert "game id" not in out.stderr


def test_a_bad_bot_leaves_an_existing_records_file_alone(
    cli: Run, one_line_error: Run, tmp_path: Path
) -> None:
    records = tmp_path / "games.jsonl"
    records.write_text("precious\n")
    out = cli(["simulate", "-n", "2", "-q", "--records", str(records), "--bots", "nosuchbot"])
    one_line_error(out, "unknown bot 'nosuchbot'")
    assert records.read_text() == "precious\n"


#: every module an extra installs: hidden, the process is a core-only install
EXTRA_MODULES = tuple(sorted(EXTRA_OF_MODULE))


def test_a_core_only_install_runs_the_core_commands_and_names_extras(
    sushigo: Run, one_line_error: Run, tmp_path: Path
) -> None:
    listing = sushigo(["--help"], hide=EXTRA_MODULES)
    assert listing.code == 0 and "tournament" in listing.stdout and "Traceback" not in listing.output
    records = tmp_path / "g.jsonl"
    simulate = sushigo(
        ["simulate", "-p", "2", "-n", "2", "-q", "--records", str(records)], hide=EXTRA_MODULES
    )
    assert simulate.code == 0, simulate.output
    replay = sushigo(["replay", str(records)], hide=EXTRA_MODULES)
    assert replay.code == 0 and replay.stdout.strip().endswith("2 games: 2 replayed, 0 with errors")
    tournament = sushigo(
        ["tournament", "-p", "2", "-n", "2", "-j", "1", "-q", "--bots", "greedy,random"], hide=EXTRA_MODULES
    )
    assert tournament.code == 0 and "pip install 'sushigo[bots]'" in tournament.stderr
    assert "Traceback" not in tournament.output and "nan" not in tournament.stdout
    one_line_error(sushigo(["serve"], hide=EXTRA_MODULES), "pip install 'sushigo[web]'")


def test_a_closed_pipe_ends_quietly(cli: Run, tmp_path: Path) -> None:
    import subprocess

    records = tmp_path / "g.jsonl"
    assert cli(["simulate", "-p", "2", "-n", "60", "-q", "--records", str(records)]).code == 0
    exe = Path(sys.executable).with_name("sushigo")
    proc = subprocess.run(
        f"'{exe}' replay --verbose '{records}' | head -1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.stdout.count("\n") == 1 and proc.stderr == ""


def test_replay_game_plays_one_failed_game_again(
    cli: Run, one_line_error: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "crashbot_replay.py").write_text(CRASH_BOT)
    monkeypatch.syspath_prepend(str(tmp_path))
    args = ["tournament", "-p", "2", "-n", "8", "-j", "1", "-q", "--bots", "crashbot_replay:Crash,random"]
    failed = cli(args)
    game_id = int(failed.stderr.split("game id ")[1].split()[0])
    out = cli([*args, "--replay-game", str(game_id)])
    one_line_error(out, f"game id {game_id} failed: ZeroDivisionError: boom", "SUSHIGO_DEBUG=1")
    monkeypatch.setenv("SUSHIGO_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        cli([*args, "--replay-game", str(game_id)])
    monkeypatch.delenv("SUSHIGO_DEBUG")
    good = cli(
        ["tournament", "-p", "2", "-n", "4", "-j", "1", "-q", "--bots", "greedy,random", "--replay-game", "3"]
    )
    assert good.code == 0 and json.loads(good.stdout)["id"] == 3


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_an_unwritable_file_system_is_found_before_the_run(cli: Run, one_line_error: Run) -> None:
    # /proc refuses new files even to root, for whom permission bits say nothing
    out = cli(["tournament", "-p", "2", "-n", "2", "-j", "1", "-q", "--csv", "/proc/sushigo-test.csv"])
    one_line_error(out, "--csv", "cannot write /proc/sushigo-test.csv")
    assert out.code == 2 and "tournament:" not in out.stdout


def test_the_errors_module_examples() -> None:
    import doctest

    import sushigo.errors

    result = doctest.testmod(sushigo.errors)
    assert result.attempted > 0 and result.failed == 0
