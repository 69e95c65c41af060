"""docs/party.md's example runs as written, and the Party modules' docstring examples hold."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_party_guide_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "docs" / "party.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/party.md", "exec"), {})
    assert capsys.readouterr().out.strip()


def test_the_guide_lists_every_suggested_menu_and_option() -> None:
    from sushigo.party.menus import SUGGESTED
    from sushigo.party.options import DEFAULTS

    text = (ROOT / "docs" / "party.md").read_text(encoding="utf-8")
    for key in [*SUGGESTED, *DEFAULTS]:
        assert f"`{key}`" in text, key


@pytest.mark.parametrize(
    "name", ["sushigo.cards.base", "sushigo.party.cards", "sushigo.party.actions", "sushigo.party.rules"]
)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
