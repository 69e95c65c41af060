"""The code examples in README.md and docs/ run as written, so the documentation cannot drift."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sushigo.bots import make_bot
from sushigo.cli import main
from sushigo.runner import play
from sushigo.sushi_go import new_game

ROOT = Path(__file__).resolve().parents[1]


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.parametrize("doc", ["README.md", "docs/engine.md"])
def test_python_examples_run(doc: str, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = python_blocks(ROOT / doc)
    assert blocks
    for block in blocks:
        exec(compile(block, doc, "exec"), {})
    assert capsys.readouterr().out.strip()  # each example prints its totals


def test_the_example_bot_of_docs_bots_md_plays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    block = next(b for b in python_blocks(ROOT / "docs/bots.md") if "class SetCollector" in b)
    assert len(block.strip().splitlines()) <= 25
    (tmp_path / "mybots.py").write_text(block, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    sys.modules.pop("mybots", None)
    bots = [make_bot("mybots:SetCollector", seed=1), make_bot("random", seed=2), make_bot("random", seed=3)]
    state = play(new_game(3, seed=5), bots)
    assert state.is_over()
    result = CliRunner().invoke(main, ["simulate", "-p", "2", "-n", "2", "-q", "--bots", "mybots:SetCollector,greedy"])
    assert result.exit_code == 0, result.output


def test_the_example_dice_file_is_the_default_set() -> None:
    from sushigo.sushi_roll.dice import default_dice_set, load_dice_set

    assert load_dice_set(ROOT / "examples" / "dice.toml").same_faces(default_dice_set())
