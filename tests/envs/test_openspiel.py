"""Both games run under OpenSpiel: its random-simulation check, and its information-set MCTS bot."""

from __future__ import annotations

import random

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
    state.apply_action(3)
    for _ in range(15):
        if state.is_terminal():
            break
        player = state.current_player()
        sample = state.resample(player, rng)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
        np.testing.assert_array_equal(sample.observation_tensor(player), state.observation_tensor(player))
        state.apply_action(rng.choice(state.legal_actions()))


def test_observation_tensor_matches_the_env_encoding() -> None:
    game = pyspiel.load_game("python_sushi_go", {"players": 3})
    state = game.new_initial_state()
    state.apply_action(11)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


@pytest.mark.parametrize(("name", "params"), [GAMES[0], GAMES[4]])
def test_openspiel_ismcts_bot_plays_a_full_game(name: str, params: dict) -> None:
    game = pyspiel.load_game(name, params)
    rs = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rs, use_observation_string=True)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rs.randint(game.max_chance_outcomes())))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            moves += 1
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    assert moves > 0
    assert abs(sum(state.returns())) < 1e-9
