"""pyproject.toml's extras never resolve a CUDA PyTorch, and scripts/test installs every extra the suite uses.

A bare ``torch`` (or sb3-contrib / stable-baselines3, which depend on an unpinned one) resolves the CUDA
build of several GB from PyPI; the ``train`` extra pins the CPU build these machines keep on disk. So
every extra that brings PyTorch must bring it through that pin.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PULLS_TORCH = {"torch", "sb3-contrib", "stable-baselines3", "torchvision"}


def _extras() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return project["optional-dependencies"]


def _name(requirement: str) -> str:
    return re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _expanded(extra: str, extras: dict[str, list[str]]) -> set[str]:
    """Every requirement an extra brings, with ``sushigo[a,b]`` self-references followed."""
    out: set[str] = set()
    for req in extras[extra]:
        if m := re.fullmatch(r"sushigo\[(.+)\]", req.replace(" ", "")):
            for inner in m[1].split(","):
                out |= _expanded(inner, extras)
        else:
            out.add(req.replace(" ", ""))
    return out


def test_every_extra_that_brings_pytorch_pins_the_cpu_build() -> None:
    extras = _extras()
    pinned = {r for r in extras["train"] if _name(r) == "torch"}
    assert pinned and all("==" in r for r in pinned), "the train extra must pin torch"
    for extra in extras:
        reqs = _expanded(extra, extras)
        if any(_name(r) in PULLS_TORCH for r in reqs):
            assert pinned <= reqs, f"extra {extra!r} brings PyTorch without the train extra's pin"


def test_dev_is_light() -> None:
    reqs = _expanded("dev", _extras())
    assert not any(_name(r) in PULLS_TORCH for r in reqs), "dev must not bring PyTorch"


def test_the_test_script_installs_every_extra() -> None:
    script = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    m = re.search(r"-e '\.\[([a-z,-]+)\]'", script)
    assert m, "scripts/test no longer installs the project with extras"
    installed: set[str] = set()
    extras = _extras()
    for extra in m[1].split(","):
        installed |= {extra} | {x for x in extras if _expanded(x, extras) <= _expanded(extra, extras)}
    assert set(extras) <= installed, f"scripts/test leaves out {sorted(set(extras) - installed)}"
