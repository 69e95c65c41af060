"""The docs describe three games (Sushi Go!, Sushi Roll, Sushi Go Party!), not the two the project began
with: "both games" in a doc is a claim written before Party and left stale.

docs/spec/ is exempt: it is the decided specification, where "both games" in §4 means Sushi Go! and
Sushi Roll on purpose.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STALE = re.compile(r"\bboth\s+games\b", re.IGNORECASE)


def _docs() -> list[Path]:
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [p for p in docs if "spec" not in p.relative_to(ROOT).parts]


def test_no_doc_says_both_games() -> None:
    stale = []
    for path in _docs():
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if STALE.search(line):
                stale.append(f"{path.relative_to(ROOT)}:{lineno}: {line.strip()}")
    assert not stale, "docs that still describe two games (say which games, or 'all three'):\n" + "\n".join(
        stale
    )


@pytest.mark.parametrize("text", ["README.md", "pyproject.toml", "src/sushigo/__init__.py"])
def test_the_project_is_introduced_with_its_three_games(text: str) -> None:
    head = (ROOT / text).read_text(encoding="utf-8")[:3000]
    for game in ("Sushi Go!", "Sushi Roll", "Sushi Go Party!"):
        assert game in head, f"{text} does not name {game} where it introduces the project"
