"""Waiting agents in Sushi Roll and Party get a no-op (masks are never all zero), and PettingZoo's
``aec_to_parallel`` works on all three games, equal step for step to the native Parallel environment."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, parallel_api_test
from pettingzoo.utils.conversions import aec_to_parallel

from sushigo.envs.pettingzoo_env import aec_env, parallel_env

GAMES = [
    ("sushi-go", {"players": 3}),
    ("sushi-roll", {"players": 3}),
    ("sushi-go-party", {"players": 3, "menu": "master_menu"}),
]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo")


def pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    assert len(legal) > 0, "an all-zero mask"
    return int(rng.choice(legal))


@pytest.mark.parametrize(("game", "kwargs"), GAMES)
def test_masks_are_never_all_zero_and_the_noop_is_a_waiting_agents_only_action(
    game: str, kwargs: dict
) -> None:
    env = parallel_env(game, **kwargs)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    waited = 0
    while env.agents:
        acting = {env.possible_agents[s] for s in env.core.to_act()}
        for agent, o in obs.items():
            mask = o["action_mask"]
            assert mask.any()
            if env.noop is not None:
                assert mask.shape == (env.noop + 1,)
                if agent in acting:
                    assert mask[env.noop] == 0
                else:
                    assert np.flatnonzero(mask).tolist() == [env.noop]
                    waited += 1
        obs, *_ = env.step({a: pick(o["action_mask"], rng) for a, o in obs.items()})
    assert (waited > 0) == (env.noop is not None)


def test_a_waiting_agents_action_is_ignored() -> None:
    runs = []
    for waiting_action in ("noop", 0):
        env = parallel_env("sushi-roll", players=3)
        obs, _ = env.reset(seed=2)
        rng = np.random.default_rng(2)
        seen = []
        while env.agents:
            acting = {env.possible_agents[s] for s in env.core.to_act()}
            actions = {
                a: pick(o["action_mask"], rng)
                if a in acting
                else (env.noop if waiting_action == "noop" else 0)
                for a, o in obs.items()
            }
            obs, rewards, *_ = env.step(actions)
            seen.append({a: o["observation"].tobytes() for a, o in obs.items()})
        runs.append((seen, rewards))
    assert runs[0] == runs[1]


@pytest.mark.parametrize(("game", "kwargs"), GAMES)
def test_aec_to_parallel_matches_the_parallel_env(game: str, kwargs: dict) -> None:
    converted = aec_to_parallel(aec_env(game, **kwargs))
    native = parallel_env(game, **kwargs)
    obs_c, _ = converted.reset(seed=9)
    obs_n, _ = native.reset(seed=9)
    rng = np.random.default_rng(9)
    steps = 0
    while native.agents:
        assert converted.agents == native.agents
        for a in native.agents:
            np.testing.assert_array_equal(obs_c[a]["observation"], obs_n[a]["observation"])
            np.testing.assert_array_equal(obs_c[a]["action_mask"], obs_n[a]["action_mask"])
        actions = {a: pick(o["action_mask"], rng) for a, o in obs_n.items()}
        obs_c, rew_c, term_c, *_ = converted.step(actions)
        obs_n, rew_n, term_n, *_ = native.step(actions)
        assert dict(rew_c) == pytest.approx(rew_n) and term_c == term_n
        steps += 1
    assert not converted.agents and steps > 5


@pytest.mark.parametrize(("game", "kwargs"), GAMES[1:])
def test_pettingzoos_checks_pass_on_the_converted_and_cycled_envs(game: str, kwargs: dict) -> None:
    api_test(aec_env(game, **kwargs), num_cycles=60)
    parallel_api_test(aec_to_parallel(aec_env(game, **kwargs)), num_cycles=60)


def test_an_illegal_action_mid_cycle_ends_the_game_at_the_cycles_end() -> None:
    env = aec_env("sushi-roll", players=3)
    env.reset(seed=1)
    while env.observe(env.agent_selection)["action_mask"][env.noop]:
        env.step(env.noop)  # waiting agents before the one who rolls
    agent = env.agent_selection
    obs: Any = env.observe(agent)
    assert obs["action_mask"].any()
    env.step(env.noop)  # the no-op is not legal for an acting agent
    rest = 0
    while not all(env.terminations.values()):
        assert not any(env.terminations.values())
        ob = env.observe(env.agent_selection)
        assert np.flatnonzero(ob["action_mask"]).tolist() == [env.noop]
        env.step(env.noop)
        rest += 1
    assert rest == len(env.possible_agents) - 1 - env.possible_agents.index(agent)  # the cycle's end
    assert env.rewards[agent] == -1.0 and env.infos[agent]["illegal_action"]
