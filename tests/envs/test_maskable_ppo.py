"""The MaskablePPO example of docs/environments.md runs as written and learns, on a ``gym.make``
environment that nobody unwraps (sb3-contrib finds the masks through the wrappers)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("gymnasium")

DOC = Path(__file__).resolve().parents[2] / "docs" / "environments.md"


def test_the_documented_maskable_ppo_example_learns(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    block = next(b for b in blocks if "MaskablePPO" in b)
    assert "unwrapped" not in block
    namespace: dict = {}
    exec(compile(block, str(DOC), "exec"), namespace)
    before, after = namespace["before"], namespace["after"]
    assert after > before + 2.0, (before, after)
    assert "mean margin" in capsys.readouterr().out
