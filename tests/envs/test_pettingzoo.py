"""The PettingZoo AEC and Parallel environments pass PettingZoo's API and seed tests for both games."""

from __future__ import annotations

import warnings
from functools import partial

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from sushigo.envs.encoding import encode_observation
from sushigo.envs.pettingzoo_env import aec_env, parallel_env
from sushigo.errors import IllegalActionError

CONFIGS = [
    ("sushi-go", {"players": 4}),
    ("sushi-go", {"players": 3, "pass_both_ways": True, "soy_sauce": True}),
    ("sushi-go", {"players": 2, "dummy": True}),
    ("sushi-roll", {"players": 2}),
    ("sushi-roll", {"players": 3}),
    ("sushi-go", {"players": 3, "actions": "compact", "normalized": True}),
]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo")


@pytest.mark.parametrize(("game", "kwargs"), CONFIGS)
def test_api_test(game: str, kwargs: dict) -> None:
    api_test(aec_env(game, **kwargs), num_cycles=100)


@pytest.mark.parametrize(("game", "kwargs"), CONFIGS)
def test_parallel_api_test(game: str, kwargs: dict) -> None:
    parallel_api_test(parallel_env(game, **kwargs), num_cycles=100)


@pytest.mark.parametrize(("game", "kwargs"), CONFIGS)
def test_seed_tests(game: str, kwargs: dict) -> None:
    seed_test(partial(aec_env, game, **kwargs), num_cycles=30)
    parallel_seed_test(partial(parallel_env, game, **kwargs), num_cycles=30)


def test_parallel_sushi_go_plays_every_seat_at_once_to_the_end() -> None:
    env = parallel_env("sushi-go", players=4)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    steps = 0
    while env.agents:
        for i, agent in enumerate(env.agents):
            np.testing.assert_array_equal(obs[agent]["observation"], encode_observation(env.core.observe(i)))
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, rewards, _terms, _, infos = env.step(actions)
        steps += 1
    assert steps == 3 * 7
    totals = infos["player_0"]["totals"]
    assert rewards["player_0"] == totals[0] - max(totals[1:])


def test_aec_picks_stay_secret_until_the_turn_resolves() -> None:
    env = aec_env("sushi-go", players=3)
    env.reset(seed=2)
    first = env.agent_selection
    before = env.observe("player_1")["observation"].copy()
    mask = env.observe(first)["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))
    assert env.agent_selection == "player_1"
    np.testing.assert_array_equal(env.observe("player_1")["observation"], before)


def test_illegal_action_terminates_with_a_penalty_or_raises() -> None:
    env = parallel_env("sushi-go", players=3)
    obs, _ = env.reset(seed=0)
    bad = int(np.flatnonzero(obs["player_1"]["action_mask"] == 0)[0])
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents}
    actions["player_1"] = bad
    _, rewards, terms, _, infos = env.step(actions)
    assert all(terms.values()) and rewards == {"player_0": 0.0, "player_1": -1.0, "player_2": 0.0}
    assert infos["player_1"]["illegal_action"]
    strict = aec_env("sushi-go", players=3, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(bad)
