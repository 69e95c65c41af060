"""The terminal shows the human only what seat 1 may know: never another seat's hand before it is seen."""

from __future__ import annotations

import contextlib

from sushigo.sushi_go.cards import Card
from sushigo.sushi_go.options import Config
from sushigo.sushi_go.rules import State
from sushigo.terminal.play import QuitGame, TerminalGame

from .conftest import ScriptBot, console, printed


def test_the_first_screen_shows_no_card_of_the_other_hands() -> None:
    hands = [[Card.TEMPURA] * 8 + [Card.WASABI], [Card.SASHIMI] * 9, [Card.DUMPLING] * 9]
    state = State.from_hands(Config(players=3), [hands], seed=1)
    con = console()
    screens: list[str] = []

    def ask(prompt: str) -> str:
        screens.append(printed(con))
        raise QuitGame

    game = TerminalGame(state, {1: ScriptBot(), 2: ScriptBot()}, ["You", "B", "C"], console=con, ask=ask)
    with contextlib.suppress(QuitGame):
        game.run()
    first = screens[0]
    assert "[8] tempura" in first and "[9] wasabi" in first
    assert "sashimi" not in first and "dumpling" not in first
