"""The terminal names every card as the game's card catalogue does (issue 19: card facts live once).

A card's display name comes from ``spec(game).cards()``, built from the card types themselves; the
terminal writes it in lower case in running text and adds nothing of its own to it, so a player reads
the same name in the terminal and in the browser. Names also tell the cards of a game apart, since a
player types them to pick a card.
"""

from __future__ import annotations

import re
from pathlib import Path

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


def test_fruit_and_every_card_of_a_full_party_game_read_as_the_catalogue_names_them() -> None:
    from sushigo.bots import make_bot

    from .conftest import printed

    game = "sushi-go-party"
    state = new_game(game, 4, seed=3, menu="master_menu")
    bots = {s: make_bot("heuristic", seed=s, game=game) for s in (1, 2, 3)}
    con = console()
    TerminalGame(state, bots, ["You", "B", "C", "D"], console=con, ask=lambda p: "1").run()
    out = " ".join(printed(con).split())
    fruit = {c.name[:1].lower() + c.name[1:] for c in spec(game).cards() if c.kind == "fruit"}
    seen = set(re.findall(r"fruit \([^)]*\)", out))
    assert seen and seen <= fruit, seen - fruit
    assert not re.search(r"(?<!water)melon", out)


def test_a_special_order_and_the_dessert_column_use_the_catalogues_names() -> None:
    from sushigo.terminal.games import party

    assert party.last_cards([{"card": "special_order", "copies": "maki_2"}]) == "maki 2 (special order)"
    assert party.dessert_title("green_tea_ice_cream") == "Green tea ice cream"
    assert party.dessert_title("pudding") == "Pudding"


def test_the_terminal_keeps_no_card_spelling_of_its_own() -> None:
    # the terminal's sources name cards only through the catalogue (names.py); no abbreviation or
    # spelling of a card of its own ('melon', 's.o.', 'Ice cream')
    root = Path(__file__).parents[2] / "src" / "sushigo" / "terminal"
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for own in (r"(?<!water)melon", r"\bs\.o\.", r"\bIce cream\b"):
            assert not re.search(own, text), (path.name, own)
