"""The terminal decides nothing by a game's name outside :mod:`sushigo.terminal.games`, where each game's
module is chosen once (``FRONTENDS``): a new game or variant is one more module, not a hunt for branches."""

from __future__ import annotations

import ast
from pathlib import Path

import sushigo.terminal

TERMINAL = Path(sushigo.terminal.__file__).resolve().parent
GAMES = TERMINAL / "games"


def _is_name(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("sushi-")


def _names_a_game(node: ast.AST) -> bool:
    """A game's name, or a tuple, list or set of them (``in ("sushi-go", ...)``)."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_is_name(e) for e in node.elts)
    return _is_name(node)


def game_branches(source: str) -> list[int]:
    """Returns the lines of ``source`` that branch on a game's name.

    A branch is a comparison with a game's name (``==``, ``!=``, ``in``, ``not in``, ``is``), a
    ``match`` case on one, or a dict keyed by game names (a dispatch table).
    """
    lines = []
    for node in ast.walk(ast.parse(source)):
        where: ast.expr | ast.pattern
        if isinstance(node, ast.Compare):
            found, where = any(_names_a_game(side) for side in (node.left, *node.comparators)), node
        elif isinstance(node, ast.match_case):  # a case has no line of its own: its pattern's
            found = any(_names_a_game(n) for n in ast.walk(node.pattern) if isinstance(n, ast.Constant))
            where = node.pattern
        elif isinstance(node, ast.Dict):
            found, where = any(key is not None and _is_name(key) for key in node.keys), node
        else:
            continue
        if found:
            lines.append(where.lineno)
    return sorted(lines)


def test_the_check_finds_every_kind_of_branch() -> None:
    source = """
if game == "sushi-go": pass
if "sushi-roll" != state.game: pass
if game in ("sushi-go", "sushi-go-party"): pass
x = 1 if game not in {"sushi-roll"} else 2
title = {"sushi-go": "Sushi Go!"}[game]
match game:
    case "sushi-roll": pass
ok = game == "sushi"  # not a game's name
"""
    assert game_branches(source) == [2, 3, 4, 5, 6, 8]


def test_no_branch_on_a_game_name_outside_the_game_modules() -> None:
    files = [p for p in sorted(TERMINAL.rglob("*.py")) if GAMES not in p.parents]
    assert len(files) >= 7  # play, views, names, guide, announce, layout, __init__
    found = {
        str(p.relative_to(TERMINAL)): lines
        for p in files
        if (lines := game_branches(p.read_text(encoding="utf-8")))
    }
    assert not found, f"branches on a game's name (file: lines): {found}; move them into terminal/games/"


def test_the_game_modules_are_chosen_in_one_place() -> None:
    from sushigo.game import GAME_NAMES
    from sushigo.terminal.games import FRONTENDS

    assert set(FRONTENDS) == set(GAME_NAMES)
    for p in sorted(GAMES.glob("*.py")):
        if p.name != "__init__.py":
            assert not game_branches(p.read_text(encoding="utf-8")), p.name
