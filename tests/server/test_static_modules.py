"""The table page's native ES modules hold together without a browser: every import names a file that
exists and a name that file exports, and (where Node is installed) every module parses.

The browser tests (tests/e2e) drive the page for real; this catches a broken import in a second.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "sushigo" / "server" / "static"
MODULES = sorted([*(STATIC / "table").glob("*.js"), *(STATIC / "games").glob("*.js")])

_IMPORT = re.compile(r'^import\s+(?:\{([^}]*)\}|\*\s+as\s+\w+)\s+from\s+"([^"]+)";', re.M)
_EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function|const|let)\s+(?:\{([^}]*)\}|([\w$]+))", re.M)


def _exports(path: Path) -> set[str]:
    """The names a module exports (``export const { a, b } = ...`` included)."""
    out: set[str] = set()
    for group, name in _EXPORT.findall(path.read_text(encoding="utf-8")):
        out |= {n.strip() for n in group.split(",") if n.strip()} if group else {name}
    return out


def _target(source: Path, spec: str) -> Path:
    return (
        STATIC / spec.removeprefix("/static/")
        if spec.startswith("/static/")
        else (source.parent / spec).resolve()
    )


def _imports(path: Path, text: str) -> list[tuple[Path, list[str]]]:
    out = []
    for names, spec in _IMPORT.findall(text):
        wanted = [n.split(" as ")[0].strip() for n in names.split(",") if n.strip()]
        out.append((_target(path, spec), wanted))
    return out


def test_the_table_is_split_into_modules() -> None:
    assert not (STATIC / "table.js").exists()
    assert 'type="module" src="/static/table/main.js"' in (STATIC / "table.html").read_text(encoding="utf-8")
    assert {p.name for p in (STATIC / "games").glob("*.js")} == {
        "index.js",
        "sushi_go.js",
        "sushi_roll.js",
        "party.js",
    }


@pytest.mark.parametrize("path", [*MODULES, STATIC / "replay.html"], ids=lambda p: p.name)
def test_every_import_resolves(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for target, names in _imports(path, text):
        assert target.exists(), f"{path.name} imports {target}, which does not exist"
        exported = _exports(target)
        missing = [n for n in names if n not in exported]
        assert not missing, f"{path.name} imports {missing} that {target.name} does not export"


def test_every_game_module_has_the_same_interface() -> None:
    needed = {
        "info",
        "seats",
        "mine",
        "key",
        "reset",
        "redraw",
        "scores",
        "freshRound",
        "logLine",
        "roundEnd",
        "replaySeat",
        "columns",
        "replayWhen",
        "label",
    }
    for name in ("sushi_go.js", "sushi_roll.js", "party.js"):
        exported = _exports(STATIC / "games" / name)
        assert needed <= exported, f"games/{name} lacks {sorted(needed - exported)}"


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_every_module_parses(path: Path) -> None:
    node = shutil.which("node")
    assert node is not None
    result = subprocess.run(
        [node, "--input-type=module", "--check"],
        input=path.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
