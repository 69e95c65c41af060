"""The bot registry: one entry per (name, game), the names each game offers, and the class each
name makes for each game."""

from __future__ import annotations

import pytest

from sushigo.bots import BotError, bot_names, make_bot

#: the names each game offered before the registry was keyed by (name, game); they must not change
NAMES = {
    "sushi-go": ["alpha", "greedy", "heuristic", "mcts", "neural", "random"],
    "sushi-roll": ["greedy", "heuristic", "mcts", "random", "roll-greedy", "roll-mcts"],
    "sushi-go-party": ["greedy", "heuristic", "mcts", "random"],
}


@pytest.mark.parametrize("game", sorted(NAMES))
def test_each_game_offers_the_same_bot_names(game: str) -> None:
    assert bot_names(game) == NAMES[game]


def test_all_names_are_the_union_of_the_games() -> None:
    assert bot_names() == sorted({n for names in NAMES.values() for n in names})


def test_a_name_from_another_game_is_refused_naming_the_games_it_plays() -> None:
    with pytest.raises(BotError, match=r"bot 'neural' does not play sushi-roll; it plays sushi-go"):
        make_bot("neural", game="sushi-roll")
    with pytest.raises(BotError, match=r"unknown bot 'nobody'; choose one of .*mcts"):
        make_bot("nobody", game="sushi-go-party")
