"""No code reaches into another package's ``_private`` names (issue 19: clients use the cores' public API).

The rule, checked on the syntax tree of every module under ``src/sushigo`` and ``tests``:

* A ``_name`` (one leading underscore or two, not a dunder ``__name__``) belongs to the **package** that
  defines it: the directory whose modules define it as a function, class, module or class variable,
  ``self._name``/``cls._name`` attribute, ``__slots__`` entry or import alias. Each directory is its own
  package (``sushigo/`` itself, ``sushigo/sushi_go/``, ``tests/sushi_roll/`` ...).
* Code may use ``self._name`` and ``cls._name`` anywhere, and ``x._name`` (also ``getattr(x, "_name")``,
  ``setattr``, ``hasattr``, ``delattr``) only when its own package defines ``_name`` and no module of
  another package that it imports defines it too: a class's ``clone`` or ``__eq__`` reading
  ``other._pile``, or the core's record module replaying a state, stay inside the package; a client
  that imports the core and reads ``core._pile`` is caught even if it has a ``_pile`` of its own.
* ``from module import _name`` is not allowed from any module of the project, even of the same package:
  a module's ``_names`` are its own.

The rule is by name, not by type (the syntax tree has no types): an access whose receiver comes from a
package the module does not import directly (a state handed over through a third package) passes when
the names happen to match. Dunder names and the few underscore names that are public in the standard
library (``_replace``, ``_asdict``, ``os._exit`` ...) are never private.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREES = (ROOT / "src" / "sushigo", ROOT / "tests")

#: underscore names that are public API of the standard library or of a framework we subclass
PUBLIC_UNDERSCORE = frozenset(
    {
        "_asdict",  # namedtuple
        "_replace",
        "_fields",
        "_make",
        "_field_defaults",
        "_exit",  # os._exit
        "_getframe",  # sys._getframe
        "_value_",  # enum
        "_name_",
        "_missing_",
        "_generate_next_value_",
        "_ignore_",
    }
)


def _private(name: str) -> bool:
    return (
        name.startswith("_")
        and not (name.startswith("__") and name.endswith("__"))
        and (name not in PUBLIC_UNDERSCORE)
    )


def _modules(trees: tuple[Path, ...]) -> Iterator[Path]:
    for tree in trees:
        yield from sorted(p for p in tree.rglob("*.py") if "__pycache__" not in p.parts)


def _defined(tree: ast.AST) -> set[str]:
    """The private names a module defines (see the module docstring)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                out.add(node.attr)
        elif isinstance(node, ast.alias):
            out.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__slots__" for t in targets) and node.value:
                out.update(
                    e.value
                    for e in ast.walk(node.value)
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                )
    return {n for n in out if _private(n)}


def _package_of_module(importer: Path, node: ast.ImportFrom, src: Path) -> Path | None:
    """The directory of the module ``node`` imports from (``None`` outside the two trees)."""
    if node.level:
        base = importer.parent
        for _ in range(node.level - 1):
            base = base.parent
        parts = node.module.split(".") if node.module else []
    else:
        if not node.module or not node.module.startswith("sushigo"):
            return None
        base = src
        parts = node.module.split(".")
    target = base.joinpath(*parts)
    return target if target.is_dir() else target.parent


def _imported_modules(importer: Path, tree: ast.AST, src: Path) -> set[Path]:
    """The project's module files ``importer`` imports from (a package's ``__init__.py`` for a package)."""
    out: set[Path] = set()
    for node in ast.walk(tree):
        targets: list[Path] = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = importer.parent
                for _ in range(node.level - 1):
                    base = base.parent
            elif node.module and node.module.startswith("sushigo"):
                base = src
            else:
                continue
            stem = base.joinpath(*(node.module.split(".") if node.module else []))
            targets.append(stem)
            targets.extend(stem / alias.name for alias in node.names)  # submodules imported by name
        elif isinstance(node, ast.Import):
            targets.extend(
                src.joinpath(*a.name.split(".")) for a in node.names if a.name.startswith("sushigo")
            )
        for t in targets:
            for candidate in (t.with_suffix(".py"), t / "__init__.py"):
                if candidate.is_file() and candidate != importer:
                    out.add(candidate)
    return out


def _parse(path: Path) -> ast.Module:
    """``ast.parse``, tried a second time after CPython 3.11's spurious "AST constructor recursion depth
    mismatch" SystemError (gh-106905, fixed in 3.11.8), which a deep test-suite stack can trigger (seen
    in a CI run; test_game_branches.py guards its parse the same way)."""
    source = path.read_text("utf-8")
    try:
        return ast.parse(source, str(path))
    except SystemError:
        return ast.parse(source, str(path))


def violations(root: Path = ROOT, trees: tuple[Path, ...] = TREES) -> list[tuple[str, int, str]]:
    """Every access to another package's private name under ``trees``, as (file, line, name)."""
    parsed = {p: _parse(p) for p in _modules(trees)}
    by_module = {path: _defined(tree) for path, tree in parsed.items()}
    by_package: dict[Path, set[str]] = {}
    for path, names in by_module.items():
        by_package.setdefault(path.parent, set()).update(names)
    out: list[tuple[str, int, str]] = []
    for path, tree in parsed.items():
        # the package's names, less those that a module of another package it imports also defines
        foreign: set[str] = set()
        for module in _imported_modules(path, tree, root / "src"):
            if module.parent != path.parent and module in by_module:
                foreign |= by_module[module]
        mine = by_package[path.parent] - foreign
        rel = str(path.relative_to(root))
        for node in ast.walk(tree):
            name: str | None = None
            if isinstance(node, ast.Attribute) and _private(node.attr):
                receiver = node.value
                if not (isinstance(receiver, ast.Name) and receiver.id in ("self", "cls")):
                    name = node.attr if node.attr not in mine else None
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
                and _private(node.args[1].value)
            ):
                name = node.args[1].value if node.args[1].value not in mine else None
            elif isinstance(node, ast.ImportFrom):
                source = _package_of_module(path, node, root / "src")
                for alias in node.names:
                    if _private(alias.name) and source is not None:
                        out.append((rel, node.lineno, alias.name))
            if name is not None:
                out.append((rel, node.lineno, name))
    return sorted(out)


def test_no_access_to_another_packages_private_names() -> None:
    found = violations()
    assert not found, "private names of another package:\n" + "\n".join(
        f"{f}:{line}: {name}" for f, line, name in found
    )


def test_the_rule_catches_what_it_should(tmp_path: Path) -> None:
    files = {
        "src/sushigo/core/__init__.py": "",
        "src/sushigo/core/state.py": (
            "def _helper():\n    return 1\n\n\n"
            "class State:\n    __slots__ = ('_pile',)\n\n"
            "    def __init__(self):\n        self._seen = 0\n        self._pile = []\n\n"
            "    def clone(self):\n        new = State()\n        new._pile = self._pile[:]\n        return new\n"
        ),
        "src/sushigo/core/record.py": (
            "from .state import State, _helper\n\n\ndef replay(st: State):\n    return st._pile, st.__class__\n"
        ),
        "src/sushigo/client/__init__.py": "",
        "src/sushigo/client/use.py": (
            "from sushigo.core.state import State, _helper\n\n\nclass Bot:\n"
            "    def __init__(self):\n        self._pile = None\n\n"
            "    def act(self, st: State):\n"
            "        return st._pile, st._seen, getattr(st, '_seen'), self._pile, st.__dict__, _helper()\n"
        ),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = violations(tmp_path, (tmp_path / "src" / "sushigo",))
    assert found == [
        ("src/sushigo/client/use.py", 1, "_helper"),  # a private import from another package
        ("src/sushigo/client/use.py", 9, "_pile"),  # the client defines _pile too, but so does core
        ("src/sushigo/client/use.py", 9, "_seen"),
        ("src/sushigo/client/use.py", 9, "_seen"),  # getattr with a constant name
        ("src/sushigo/core/record.py", 1, "_helper"),  # a private import, even within the package
    ]
