"""The bot registry: one entry per (name, game), the names each game offers, and the class each
name makes for each game."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import pkgutil
from types import ModuleType

import pytest

from sushigo import bots
from sushigo.bots import BUILTIN_MODULES, REGISTRY, BaseBot, BotError, RandomBot, bot_names, make_bot

#: the names each game offered before the registry was keyed by (name, game); they must not change
NAMES = {
    "sushi-go": ["alpha", "greedy", "heuristic", "mcts", "neural", "random"],
    "sushi-roll": ["alpha", "greedy", "heuristic", "mcts", "neural", "random", "roll-greedy", "roll-mcts"],
    "sushi-go-party": ["alpha", "greedy", "heuristic", "mcts", "neural", "random"],
}


@pytest.mark.parametrize("game", sorted(NAMES))
def test_each_game_offers_the_same_bot_names(game: str) -> None:
    assert bot_names(game) == NAMES[game]


def test_all_names_are_the_union_of_the_games() -> None:
    assert bot_names() == sorted({n for names in NAMES.values() for n in names})


def test_a_name_from_another_game_is_refused_naming_the_games_it_plays() -> None:
    with pytest.raises(BotError, match=r"bot 'roll-mcts' does not play sushi-go; it plays sushi-roll"):
        make_bot("roll-mcts", game="sushi-go")
    with pytest.raises(BotError, match=r"unknown bot 'nobody'; choose one of .*mcts"):
        make_bot("nobody", game="sushi-go-party")


#: the class prefix of each game's own bots: ``greedy`` is ``GreedyBot``, ``RollGreedyBot``,
#: ``PartyGreedyBot``
PREFIX = {"sushi-go": "", "sushi-roll": "Roll", "sushi-go-party": "Party"}
#: how a name is spelled inside a class name when it is not simply capitalised
SPELLED = {"mcts": "MCTS"}
#: the (name, game) entries whose class or reported ``name`` do not follow from the name: random is one
#: class for every game, and Sushi Roll's older names report the names they alias
EXCEPTIONS: dict[tuple[str, str], tuple[str, str]] = {
    **{("random", game): ("RandomBot", "random") for game in NAMES},
    ("roll-greedy", "sushi-roll"): ("RollGreedyBot", "greedy"),
    ("roll-mcts", "sushi-roll"): ("RollMCTSBot", "mcts"),
}
#: the class and ``name`` each (name, game) makes, from :data:`NAMES` (a new bot is pinned there once,
#: and here only if it is an exception); the names are the ones the bots reported before
CLASSES = {
    (name, game): EXCEPTIONS.get(
        (name, game), (f"{PREFIX[game]}{SPELLED.get(name, name.capitalize())}Bot", name)
    )
    for game, names in NAMES.items()
    for name in names
}


def test_the_registry_has_one_entry_per_name_and_game() -> None:
    bot_names()
    assert sorted(REGISTRY) == sorted(CLASSES)


@pytest.mark.parametrize("name,game", sorted(CLASSES))
def test_make_bot_returns_the_games_class_directly(name: str, game: str) -> None:
    bot = make_bot(name, seed=1, game=game)
    assert (type(bot).__name__, bot.name) == CLASSES[(name, game)]


def test_options_are_checked_against_the_games_class() -> None:
    assert make_bot("mcts", game="sushi-roll", max_swaps=2).max_swaps == 2
    with pytest.raises(BotError, match=r"bot 'mcts' has no option 'max_swaps' \(for sushi-go\)"):
        make_bot("mcts", game="sushi-go", max_swaps=2)


def _calls_register(module: ModuleType) -> bool:
    tree = ast.parse(inspect.getsource(module))
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "register"
        for node in ast.walk(tree)
    )


def test_every_bot_module_is_listed_and_registers_the_bots_it_defines() -> None:
    # a module that registers bots but is missing from BUILTIN_MODULES would never be imported, so its
    # bots would be "unknown"; a bot class defined in the package but never registered is unreachable
    bot_names()
    registered = set(REGISTRY.values())
    checked = []
    for info in pkgutil.walk_packages(bots.__path__, f"{bots.__name__}."):
        module = importlib.import_module(info.name)
        top = info.name.split(".")[2]
        if _calls_register(module):
            assert top in BUILTIN_MODULES, f"{info.name} registers bots but is not in BUILTIN_MODULES"
        for obj in vars(module).values():
            if (
                inspect.isclass(obj)
                and obj.__module__ == module.__name__
                and issubclass(obj, BaseBot)
                and obj.act is not BaseBot.act  # a base such as SearchBot plays nothing itself
            ):
                assert obj in registered, f"{obj.__qualname__} in {info.name} is never registered"
                checked.append(obj)
    assert len(checked) >= len(set(REGISTRY.values()))
    assert all(importlib.util.find_spec(f"{bots.__name__}.{m}") for m in BUILTIN_MODULES)


def test_a_user_bot_from_module_colon_class_still_loads() -> None:
    bot = make_bot("sushigo.bots.random_bot:RandomBot", seed=3, game="sushi-go-party")
    assert isinstance(bot, RandomBot) and bot.seed == 3
