"""Both games run under OpenSpiel: its random-simulation check, and its information-set MCTS bot."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import sushigo.envs.openspiel_game  # noqa: E402, F401

GAMES = [
    ("python_sushi_go", {"players": 2}),
    ("python_sushi_go", {"players": 4, "pass_both_ways": True}),
    ("python_sushi_go", {"players": 3, "soy_sauce": True, "strict_wasabi": True}),
    ("python_sushi_go", {"players": 2, "dummy": True}),
    ("python_sushi_roll", {"players": 2}),
    ("python_sushi_roll", {"players": 3}),
]


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_random_sim_test(name: str, params: dict) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_resampled_states_look_the_same_to_the_player(name: str, params: dict) -> None:
    game = pyspiel.load_game(name, params)
    rng = random.Random(0)
    state = game.new_initial_state()
    for _ in range(15):
        play_chance(state, rng)
        if state.is_terminal():
            break
        player = state.current_player()
        sample = state.resample(player, rng)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
        np.testing.assert_array_equal(sample.observation_tensor(player), state.observation_tensor(player))
        state.apply_action(rng.choice(state.legal_actions()))


def play_chance(state: pyspiel.State, rng: random.Random) -> None:
    """Plays chance moves (drawn by their probabilities) until a seat must move or the game ends."""
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])


def test_observation_tensor_matches_the_env_encoding() -> None:
    game = pyspiel.load_game("python_sushi_go", {"players": 3})
    state = game.new_initial_state()
    play_chance(state, random.Random(11))
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


@pytest.mark.parametrize(("name", "params"), [GAMES[0], GAMES[4]])
def test_openspiel_ismcts_bot_plays_a_full_game(name: str, params: dict, bot_vs_random: Any) -> None:
    game = pyspiel.load_game(name, params)
    rs = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rs, use_observation_string=True)
    state, moves = bot_vs_random(game, bot, rs)
    assert moves > 0
    assert abs(sum(state.returns())) < 1e-9


def test_chance_deals_every_card_with_its_probability() -> None:
    from sushigo.game import new_game
    from sushigo.sushi_go.cards import deck_counts

    game = pyspiel.load_game("python_sushi_go", {"players": 4})
    state = game.new_initial_state()
    outcomes = dict(state.chance_outcomes())
    deck = deck_counts(False)
    assert outcomes == {k: c / sum(deck) for k, c in enumerate(deck) if c}
    # any deal can happen: here, exactly the one the core deals from seed 5
    target = new_game("sushi-go", 4, seed=5)
    cards = [int(c) for c in target.hands[0] + target.hands[1] + target.hands[2] + target.hands[3]]
    cards += [int(c) for c in target.undealt()[: 2 * 32]]
    moves = 0
    while state.is_chance_node():
        state.apply_action(cards[moves])
        moves += 1
    assert moves == 3 * 4 * 8 == game.max_chance_nodes_in_history()
    assert [list(h) for h in state.core.hands] == [list(h) for h in target.hands]
    assert game.max_chance_outcomes() == 13


def test_sushi_roll_chance_is_each_draw_and_roll() -> None:
    game = pyspiel.load_game("python_sushi_roll", {"players": 3})
    state = game.new_initial_state()
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 3] * 3)
    state.apply_action(1)  # the red belt to seat 1
    bag = dict(state.chance_outcomes())
    assert sum(bag.values()) == pytest.approx(1.0) and len(bag) == 5
    rng = random.Random(2)
    play_chance(state, rng)
    assert state.core.red_seat == 1 and state.current_player() == 1
    rerolls = [a for a in state.legal_actions() if state.action_to_string(a).startswith("reroll")]
    if rerolls:
        state.apply_action(rerolls[0])
        assert state.is_chance_node() and len(state.chance_outcomes()) == 6


def test_seeded_deals_remain_available() -> None:
    for name in ("python_sushi_go", "python_sushi_roll"):
        game = pyspiel.load_game(name, {"players": 2, "deals": 10})
        assert game.max_chance_outcomes() == 10
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize(("name", "params"), [GAMES[1], GAMES[3], GAMES[5]])
def test_information_state_tensor_is_fair_and_sized(name: str, params: dict) -> None:
    game = pyspiel.load_game(name, params)
    rng = random.Random(4)
    state = game.new_initial_state()
    size = game.information_state_tensor_size()
    assert size > game.observation_tensor_size()
    for _ in range(12):
        play_chance(state, rng)
        if state.is_terminal():
            break
        player = state.current_player()
        tensor = state.information_state_tensor(player)
        assert len(tensor) == size
        np.testing.assert_array_equal(state.resample(player, rng).information_state_tensor(player), tensor)
        state.apply_action(rng.choice(state.legal_actions()))


def test_python_shortcuts_agree_with_openspiel() -> None:
    game = pyspiel.load_game("python_sushi_go", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        other = (state.current_player() + 1) % 3 if not state.is_chance_node() else 0
        if not state.is_chance_node():
            assert state.legal_actions(other) == pyspiel.State.legal_actions(state, other)
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.legal_actions() == []
