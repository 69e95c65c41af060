"""Helpers shared by tests in several folders (the tests run with ``--import-mode=importlib``, so a
shared helper reaches them as a fixture rather than by import)."""

from __future__ import annotations

import importlib.util
import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sushigo.sushi_go.rules import State


def _advance(game: State, turns: int, rng: random.Random) -> None:
    """Plays ``turns`` turns of uniformly random picks (fewer if the game ends first)."""
    for _ in range(turns):
        if game.is_over():
            return
        game.apply_turn([rng.choice(game.legal_actions(s)) for s in range(game.players)])


def _reshuffle_hidden(game: State, seat: int, rng: random.Random) -> State:
    """Returns a copy in which every card ``seat`` cannot see is redistributed at random.

    The hidden places are the undealt pile, the hands the seat has not held, the dummy pile and the card
    the opposing dummy controller drew; other seats' pending picks are redrawn. Everything the seat can
    see stays where it is, so whatever is built from the seat's observation (the observation itself, an
    encoding, a bot's pick) must come out the same for both games: the no-peek tests of the engine, the
    environments and the bots. It is the engine's own :meth:`State.determinize`.
    """
    return game.determinize(seat, rng)


@pytest.fixture(scope="session")
def reshuffle_hidden() -> Callable[[State, int, random.Random], State]:
    """The Sushi Go! hidden-card redistribution above (session-scoped, so Hypothesis tests may use it)."""
    return _reshuffle_hidden


@pytest.fixture(scope="session")
def advance() -> Callable[[State, int, random.Random], None]:
    """Random turns to reach a position for the hidden-information tests (session-scoped, as above)."""
    return _advance


def _load_benchmark(name: str) -> Any:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def load_benchmark() -> Callable[[str], Any]:
    """Loads a script of ``benchmarks/`` by name as a module: they are scripts, not a package, and their
    tests call their functions at a tiny size."""
    return _load_benchmark


CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium with the flags this machine's closed network needs (never ``playwright install``)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium: scripts/install-system-deps.sh)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            yield b
        finally:
            b.close()
