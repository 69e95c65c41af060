"""The terminal names every card as the game's card catalogue does (issue 19: card facts live once).

A card's display name comes from ``spec(game).cards()``, built from the card types themselves; the
terminal writes it in lower case in running text and adds nothing of its own to it, so a player reads
the same name in the terminal and in the browser. Names also tell the cards of a game apart, since a
player types them to pick a card.
"""

from __future__ import annotations

import pytest

from sushigo.game import GAME_NAMES, new_game, spec
from sushigo.terminal.play import TerminalGame

from .conftest import console


def _frontend(game: str) -> TerminalGame:
    return TerminalGame(new_game(game, 2, seed=1), {}, ["You", "B"], console=console(), ask=lambda p: "1")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_card_is_shown_with_the_catalogues_name(game: str) -> None:
    frontend = _frontend(game).frontend
    cards = spec(game).cards()
    assert cards
    for card in cards:
        assert frontend.card_name(card.id).casefold() == card.name.casefold(), card


@pytest.mark.parametrize("game", GAME_NAMES)
def test_card_names_tell_the_cards_of_a_game_apart(game: str) -> None:
    names = [c.name.casefold() for c in spec(game).cards()]
    assert len(set(names)) == len(names), sorted(n for n in names if names.count(n) > 1)
