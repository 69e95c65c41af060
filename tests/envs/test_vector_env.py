"""The vectorised Gymnasium environment on the batch engine."""

from __future__ import annotations

import pytest

gym = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402

import sushigo.envs  # noqa: E402, F401
from sushigo.batch.engine import random_policy  # noqa: E402
from sushigo.envs.vector_env import SushiGoVectorEnv  # noqa: E402


def masked_random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    keys = rng.random(mask.shape)
    keys[mask == 0] = -1.0
    return keys.argmax(axis=1)


@pytest.mark.parametrize(
    "kwargs", [{"players": 4}, {"players": 2, "dummy": True}, {"players": 5, "soy_sauce": True}]
)
def test_make_vec_plays_episodes_and_autoresets(kwargs: dict) -> None:
    env = gym.make_vec("sushigo/SushiGo-v0", num_envs=16, **kwargs)
    assert isinstance(env, SushiGoVectorEnv)
    obs, info = env.reset(seed=3)
    assert obs.shape == (16, env.single_observation_space.shape[0])
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(70):
        assert env.observation_space.contains(obs)
        obs, rewards, terminated, _truncated, info = env.step(masked_random(info["action_mask"], rng))
        if terminated.any():
            assert terminated.all()
            totals = info["totals"]
            np.testing.assert_array_equal(rewards, totals[:, 0] - np.delete(totals, 0, axis=1).max(axis=1))
            episodes += 1
        else:
            assert (rewards == 0).all()
    assert episodes >= 2


def test_win_reward_policy_opponents_and_illegal_actions() -> None:
    env = SushiGoVectorEnv(num_envs=8, players=3, seat=1, reward="win", opponents=random_policy(1))
    _, info = env.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        env.step(np.full(8, 2547))
    rng = np.random.default_rng(2)
    while True:
        _obs, rewards, terminated, _, info = env.step(masked_random(info["action_mask"], rng))
        if terminated.all():
            break
    assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}


def test_same_seed_same_episodes() -> None:
    a, b = SushiGoVectorEnv(num_envs=4, players=4), SushiGoVectorEnv(num_envs=4, players=4)
    oa, ia = a.reset(seed=5)
    ob, _ib = b.reset(seed=5)
    np.testing.assert_array_equal(oa, ob)
    act = masked_random(ia["action_mask"], np.random.default_rng(0))
    np.testing.assert_array_equal(a.step(act)[0], b.step(act)[0])
