"""The commands shown in docs/terminal.md are accepted as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from sushigo.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "terminal.md"


def test_every_play_command_in_the_terminal_doc_starts_a_game() -> None:
    commands = re.findall(r"^(sushigo play[^#\n]*)", DOC.read_text(encoding="utf-8"), flags=re.M)
    assert len(commands) >= 6
    for command in commands:
        args = shlex.split(command)[2:]
        result = CliRunner().invoke(main, ["play", *args], input="quit\n")
        assert result.exit_code == 0, (command, result.output)
        assert "You left the game." in result.output or "Bots that play" in result.output
