"""Clients ask the game's spec, never its name (issue 19): no branch on a game's name outside the cores.

A game's differences live in its core package, in :mod:`sushigo.game` (the registry) and in one module
per client, chosen once from a table keyed by the game's name:

* the server: ``server/presentation/{sushi_go,sushi_roll,party}.py`` (``presentation/__init__.py``);
* the browser: ``static/games/{sushi_go,sushi_roll,party}.js`` (``static/games/index.js``);
* the terminal: ``terminal/games/{sushi_go,sushi_roll,party}.py`` (``terminal/games/__init__.py``);
* the environments: ``envs/adapters.py``'s ``ADAPTERS`` and ``envs/spiel_base.py``'s drivers.

Everywhere else a comparison with a game's name (``game == "sushi-roll"``, ``game in ("sushi-go", ...)``,
a ``match`` case, ``=== "sushi-go"`` or ``.includes`` in the browser's scripts) is a branch a new game
would have to find; this test finds it first, naming the file and line.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from sushigo.game import GAME_NAMES

SRC = Path(__file__).resolve().parents[1] / "src" / "sushigo"
STATIC = SRC / "server" / "static"

#: The cores and the registry may name their games.
CORE = {"sushi_go", "sushi_roll", "party", "cards", "game.py"}
#: The clients' per-game modules: the one place per client where a game's name may choose behaviour.
PER_GAME = {SRC / "server" / "presentation", STATIC / "games", SRC / "terminal" / "games"}

_JS_BRANCH = re.compile(
    r"""[=!]==?\s*["'`]sushi-[a-z-]+["'`]|["'`]sushi-[a-z-]+["'`]\s*[=!]==?|case\s+["'`]sushi-"""
    r"""|\[[^\]]*["'`]sushi-[^\]]*\]\s*\.includes|\.includes\(\s*["'`]sushi-"""
)


def _is_name(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in GAME_NAMES


def _names_a_game(node: ast.AST) -> bool:
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_name(e) for e in node.elts)
    return _is_name(node)


def _parse(source: str) -> ast.Module:
    """``ast.parse``, tried a second time after CPython 3.11's spurious "AST constructor recursion depth
    mismatch" SystemError (gh-106905, fixed in 3.11.8), which a deep test-suite stack can trigger."""
    try:
        return ast.parse(source)
    except SystemError:
        return ast.parse(source)


def python_branches(source: str) -> list[int]:
    """The lines of ``source`` that compare with a game's name or ``match`` a case on one."""
    lines = []
    for node in ast.walk(_parse(source)):
        if isinstance(node, ast.Compare) and any(_names_a_game(x) for x in (node.left, *node.comparators)):
            lines.append(node.lineno)
        elif isinstance(node, ast.match_case) and any(_is_name(n) for n in ast.walk(node.pattern)):
            lines.append(node.pattern.lineno)
    return sorted(lines)


def _exempt(path: Path) -> bool:
    rel = path.relative_to(SRC)
    return rel.parts[0] in CORE or any(folder in path.parents for folder in PER_GAME)


def branches() -> dict[str, list[int]]:
    """Every client file with branches on a game's name, and their lines."""
    found: dict[str, list[int]] = {}
    for path in sorted(SRC.rglob("*")):
        if _exempt(path) or path.suffix not in (".py", ".js", ".html"):
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            lines = python_branches(text)
        else:
            lines = [n for n, line in enumerate(text.splitlines(), 1) if _JS_BRANCH.search(line)]
        if lines:
            found[path.relative_to(SRC.parents[1]).as_posix()] = lines
    return found


def test_the_detectors_see_a_branch() -> None:
    sample = 'def f(game):\n    if game == "sushi-roll": pass\n    return game in ("sushi-go", "x")\n'
    assert python_branches(sample) == [2, 3]
    assert python_branches('match g:\n    case "sushi-go-party":\n        pass\n') == [2]
    assert python_branches('TABLE = {"sushi-go": 1}\nx = TABLE[g]\n') == []
    assert _JS_BRANCH.search('if (v.game === "sushi-go") x();')
    assert _JS_BRANCH.search('"sushi-roll" !== game')
    assert _JS_BRANCH.search('["sushi-go", "sushi-roll"].includes(game)')
    assert not _JS_BRANCH.search('const GAMES = { "sushi-go": sushiGo };')


def test_no_client_branches_on_a_game_name() -> None:
    found = branches()
    assert not found, f"branches on a game's name outside the cores and per-game modules: {found}"


def test_each_client_chooses_its_per_game_module_from_one_table() -> None:
    from sushigo.envs.adapters import ADAPTERS
    from sushigo.server.presentation import presentation
    from sushigo.terminal.games import FRONTENDS

    index = (STATIC / "games" / "index.js").read_text(encoding="utf-8")
    for game in GAME_NAMES:
        assert presentation(game) is presentation(game)
        assert game in FRONTENDS and game in ADAPTERS
        assert f'"{game}":' in index
