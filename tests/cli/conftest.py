"""Fixtures running the ``sushigo`` command as a user would: in-process (CliRunner) or as a new process.

The fresh process can hide modules (``sys.modules[name] = None`` makes their import fail exactly like
a missing install), which is how the tests play "a core-only install" or "without matplotlib".
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sushigo.cli import main

BOOTSTRAP = (
    "import sys\n"
    "for name in sys.argv[1].split(','):\n"
    "    if name:\n"
    "        sys.modules[name] = None\n"
    "from sushigo.cli import main\n"
    "sys.argv = ['sushigo', *sys.argv[2:]]\n"
    "main()\n"
)


@dataclass
class Outcome:
    code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def invoke(args: list[str], stdin: str | None = None) -> Outcome:
    """Runs the command in this process."""
    result = CliRunner().invoke(main, args, input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # an escaped exception is a bug the test must show
    return Outcome(result.exit_code, result.stdout, result.stderr)


def spawn(
    args: list[str],
    *,
    hide: tuple[str, ...] = (),
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    stdin: str | None = None,
    timeout: float = 120,
) -> Outcome:
    """Runs the command as a new Python process with the modules ``hide`` uninstalled."""
    full_env = {k: v for k, v in os.environ.items() if k != "SUSHIGO_DEBUG"}
    full_env.update(env or {})
    proc = subprocess.run(
        [sys.executable, "-c", BOOTSTRAP, ",".join(hide), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=full_env,
        input=stdin,
        timeout=timeout,
    )
    return Outcome(proc.returncode, proc.stdout, proc.stderr)


def assert_one_line_error(out: Outcome, *needles: str) -> None:
    """The user-facing contract: non-zero exit, no traceback, the message on stderr names the cause."""
    assert out.code != 0, out.output
    assert "Traceback" not in out.output, out.output
    for needle in needles:
        assert needle in out.stderr, out.output


@pytest.fixture
def cli() -> Callable[..., Outcome]:
    """``cli(args, stdin=None)``: the command in this process."""
    return invoke


@pytest.fixture
def sushigo() -> Callable[..., Outcome]:
    """``sushigo(args, hide=(...), cwd=..., env=...)``: the command as a new process."""
    return spawn


@pytest.fixture
def one_line_error() -> Callable[..., None]:
    """``one_line_error(outcome, *needles)``: asserts the one-line error contract."""
    return assert_one_line_error


@pytest.fixture(autouse=True)
def _no_debug(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.delenv("SUSHIGO_DEBUG", raising=False)
