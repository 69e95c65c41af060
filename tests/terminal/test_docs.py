"""The commands shown in docs/terminal.md are accepted as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from sushigo.cli import main
from sushigo.i18n import from_environ, translator

DOC = Path(__file__).resolve().parents[2] / "docs" / "terminal.md"


def test_every_play_command_in_the_terminal_doc_starts_a_game() -> None:
    commands = re.findall(
        r"^((?:LANG=\S+ )?sushigo play[^#\n]*)", DOC.read_text(encoding="utf-8"), flags=re.M
    )
    assert len(commands) >= 6
    for command in commands:
        words = shlex.split(command)
        env = dict(w.split("=", 1) for w in words if re.fullmatch(r"[A-Z_]+=\S+", w))
        args = [w for w in words if w not in {f"{k}={v}" for k, v in env.items()}][2:]
        lang = args[args.index("--lang") + 1] if "--lang" in args else from_environ(env)
        result = CliRunner().invoke(main, ["play", *args], input="quit\n", env=dict(env))
        assert result.exit_code == 0, (command, result.output)
        left = translator(lang).gettext("You left the game.")
        assert left in result.output or "Bots that play" in result.output, (command, result.output)
