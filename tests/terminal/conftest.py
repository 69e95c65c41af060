"""Shared pieces of the terminal tests: a console that keeps what it printed, and scripted players."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest
from rich.console import Console

from sushigo.game import GameState
from sushigo.terminal.i18n import gettext as _
from sushigo.terminal.i18n import use
from sushigo.terminal.play import TerminalGame


def console(width: int = 80) -> Console:
    """Returns a plain (no colour) console of ``width`` columns printing into a string."""
    return Console(
        file=io.StringIO(), width=width, height=24, color_system=None, force_terminal=False, highlight=False
    )


def printed(con: Console) -> str:
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


class ScriptBot:
    """A bot that plays the first legal action among its preferences (text forms), else the first legal.

    Each preference is used at most once, so a script reads as "do this, then that".
    """

    name = "script"

    def __init__(self, prefs: Sequence[str] = ()) -> None:
        self.prefs = list(prefs)

    def reset(self, seat: int, game: str, players: int) -> None:
        self.seat = seat

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        for i, pref in enumerate(self.prefs):
            for action in legal:
                if action.to_text() == pref:
                    del self.prefs[i]
                    return action
        return legal[0]


def answers(first: Iterable[str], then: str = "1") -> Callable[[str], str]:
    """Returns an ``ask`` that gives ``first`` in order, then ``then`` (and Enter at pauses)."""
    queue = list(first)

    def ask(prompt: str) -> str:
        if queue:
            return queue.pop(0)
        return "" if prompt.startswith(_("Press Enter to continue:")[:3]) else then

    return ask


def play(
    state: GameState,
    bots: dict[int, Any],
    ask: Callable[[str], str],
    *,
    width: int = 80,
    names: list[str] | None = None,
) -> tuple[TerminalGame, str]:
    """Plays ``state`` to the end in a recording console and returns the game and what it printed."""
    con = console(width)
    names = names or ["You", *(f"bot{s}" for s in range(1, state.players))]
    game = TerminalGame(state, bots, names, console=con, ask=ask)
    game.run()
    return game, printed(con)


@pytest.fixture(autouse=True)
def english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every terminal test runs in English unless it chooses a language: the developer's own ``LANG``
    (``ru_RU.UTF-8``, say) must not change what the English tests read."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    use("en")
