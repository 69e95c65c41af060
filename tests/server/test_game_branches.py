"""No branch on a game's name in the server or the browser's scripts, outside their per-game modules.

A game's differences live in one module per client, chosen once from a table keyed by the game's name:
``server/presentation/{sushi_go,sushi_roll,party}.py`` (chosen in ``presentation/__init__.py``) and
``static/games/{sushi_go,sushi_roll,party}.js`` (chosen in ``static/games/index.js``). Everywhere else a
comparison with a game's name (``game == "sushi-roll"``, ``game in ("sushi-go", ...)``, ``=== "sushi-go"``
in JavaScript) is a branch that a new game would have to find; this test finds them first.

The option validation of table creation (``Hub.create``, the ``TableCreate`` validators) and the lobby
script are being moved onto the game's spec by the game-spec work; until then their branches are
counted here and may only go down.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "src" / "sushigo" / "server"
STATIC = SERVER / "static"

#: Per-game modules: the one place per client where a game's name may choose behaviour.
PER_GAME = {SERVER / "presentation", STATIC / "games"}

#: Branches still allowed while the game-spec work moves them (may only go down).
PENDING_PY = {
    "rooms.py:Hub.create": 5,
    "schemas.py:TableCreate._options_for_game": 1,
    "schemas.py:TableCreate._seats_for_game": 1,
}
PENDING_JS = {"lobby.js": 7}

_JS_BRANCH = re.compile(
    r"""[=!]==?\s*["']sushi-[a-z-]+["']|["']sushi-[a-z-]+["']\s*[=!]==?|case\s+["']sushi-|\[[^\]]*["']sushi-[^\]]*\]\s*\.includes"""
)


def _per_game(path: Path) -> bool:
    return any(folder in path.parents for folder in PER_GAME)


def _is_name(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("sushi-")


def _names_a_game(node: ast.AST) -> bool:
    if _is_name(node):
        return True
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(_is_name(e) for e in node.elts)


def python_branches(path: Path) -> dict[str, int]:
    """Comparisons with a game's name (and ``match`` cases on one), counted per enclosing function."""
    counts: dict[str, int] = {}

    def visit(node: ast.AST, scope: list[str]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scope = [*scope, node.name]
        hit = (
            isinstance(node, ast.Compare) and any(_names_a_game(x) for x in [node.left, *node.comparators])
        ) or (isinstance(node, ast.match_case) and any(_is_name(n) for n in ast.walk(node.pattern)))
        if hit:
            key = f"{path.name}:{'.'.join(scope)}"
            counts[key] = counts.get(key, 0) + 1
        for child in ast.iter_child_nodes(node):
            visit(child, scope)

    visit(ast.parse(path.read_text(encoding="utf-8")), [])
    return counts


def script_branches(path: Path) -> int:
    """Comparisons with a game's name in a script (or an HTML page's inline scripts)."""
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if _JS_BRANCH.search(line))


def test_the_detectors_see_a_branch(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        'def f(game):\n    if game == "sushi-roll": pass\n    return game in ("sushi-go", "x")\n'
    )
    assert python_branches(sample) == {"sample.py:f": 2}
    assert _JS_BRANCH.search('if (v.game === "sushi-go") x();')
    assert _JS_BRANCH.search('"sushi-roll" !== game')
    assert not _JS_BRANCH.search('const GAMES = { "sushi-go": sushiGo };')


def test_no_server_module_branches_on_a_game_name() -> None:
    found: dict[str, int] = {}
    for path in sorted(SERVER.rglob("*.py")):
        if not _per_game(path):
            found.update(python_branches(path))
    over = {k: n for k, n in found.items() if n > PENDING_PY.get(k, 0)}
    assert not over, f"branches on a game's name outside server/presentation/: {over}"


def test_no_browser_script_branches_on_a_game_name() -> None:
    found = {
        path.relative_to(STATIC).as_posix(): script_branches(path)
        for path in sorted(STATIC.rglob("*"))
        if path.suffix in (".js", ".html") and not _per_game(path)
    }
    over = {k: n for k, n in found.items() if n > PENDING_JS.get(k, 0)}
    assert not over, f"branches on a game's name outside static/games/: {over}"


def test_each_client_chooses_its_per_game_module_from_one_table() -> None:
    from sushigo.server.presentation import presentation

    index = (STATIC / "games" / "index.js").read_text(encoding="utf-8")
    for game in ("sushi-go", "sushi-roll", "sushi-go-party"):
        assert presentation(game) is presentation(game)
        assert f'"{game}":' in index
