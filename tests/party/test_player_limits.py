"""Option ``player_limits`` off (rules.md §3.10 P7): what it unlocks, and the one limit it keeps."""

from __future__ import annotations

import pytest

from sushigo.errors import InvalidActionError
from sushigo.party import new_game
from sushigo.party.options import PartyConfig

from .conftest import play_random

#: Menus that hold a tile outside its printed player counts at these tables.
UNLOCKED = [
    (2, ["maki", "tempura", "sashimi", "miso_soup", "spoon", "wasabi", "pudding"]),  # spoon: 3-8
    (2, ["temaki", "edamame", "dumpling", "eel", "chopsticks", "tea", "fruit"]),  # edamame: 3-8
    (7, ["uramaki", "tofu", "onigiri", "sashimi", "menu", "soy_sauce", "green_tea_ice_cream"]),  # menu
    (8, ["maki", "tempura", "eel", "miso_soup", "menu", "takeout_box", "pudding"]),
]


@pytest.mark.parametrize(("players", "tiles"), UNLOCKED)
def test_unlocked_menus_play_whole_games(players: int, tiles: list[str]) -> None:
    """Every game ends (no seat is left without a legal move, however short the deck runs)."""
    with pytest.raises(InvalidActionError, match="players"):
        PartyConfig.build(players, tiles)
    for seed in range(12):
        state = new_game(players, seed=seed, menu=tiles, player_limits=False)
        assert play_random(state, seed).is_over()


@pytest.mark.parametrize("players", [7, 8])
def test_special_order_stays_out_from_seven_players(players: int) -> None:
    """A round deals 56 cards: with desserts (and copies of them) leaving the deck, later rounds
    could not deal full hands, so the house rule does not lift this limit."""
    tiles = ["maki", "tempura", "sashimi", "miso_soup", "special_order", "wasabi", "pudding"]
    with pytest.raises(InvalidActionError, match="even with player_limits off"):
        PartyConfig.build(players, tiles, {"player_limits": False})
    assert PartyConfig.build(6, tiles, {"player_limits": False}).players == 6
