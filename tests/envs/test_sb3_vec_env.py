"""Stable-Baselines3's VecEnv over the batch engine: SB3's own wrappers and checks accept it, and
MaskablePPO trains on it through ``action_masks()``; the Gymnasium vector env's final masks are not empty."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("gymnasium")

from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.vec_env import VecCheckNan, VecEnv, VecMonitor

import sushigo.envs  # noqa: F401
from sushigo.envs.sb3_vec_env import SushiGoSB3VecEnv
from sushigo.envs.vector_env import SushiGoVectorEnv


def masked_random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    keys = rng.random(mask.shape)
    keys[~mask.astype(bool)] = -1.0
    return keys.argmax(axis=1)


def test_the_gymnasium_vector_env_never_gives_an_all_zero_mask() -> None:
    env = SushiGoVectorEnv(num_envs=4, players=3)
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    finals = 0
    for _ in range(40):
        mask = info["action_mask"]
        assert mask.any(axis=1).all()
        _, _, terminated, _, info = env.step(masked_random(mask, rng))
        if terminated.all():
            finals += 1
            np.testing.assert_array_equal(info["action_mask"].sum(axis=1), 1)
            assert (info["action_mask"][:, 0] == 1).all()
    assert finals >= 1


@pytest.mark.parametrize("kwargs", [{"players": 4}, {"players": 2, "dummy": True, "actions": "compact"}])
def test_the_vec_env_follows_sb3s_protocol(kwargs: dict) -> None:
    env = SushiGoSB3VecEnv(num_envs=6, **kwargs)
    assert isinstance(env, VecEnv)
    wrapped = VecCheckNan(VecMonitor(env), raise_exception=True)
    env.seed(7)
    obs = wrapped.reset()
    assert obs.shape == (6, *env.observation_space.shape) and obs.dtype == np.float32
    assert wrapped.has_attr("action_masks")  # what MaskablePPO checks for
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(60):
        assert env.observation_space.contains(obs[0])
        masks = np.stack(wrapped.env_method("action_masks"))  # sb3-contrib's get_action_masks
        assert masks.shape == (6, env.action_space.n) and masks.any(axis=1).all()
        obs, rewards, dones, infos = wrapped.step(masked_random(masks, rng))
        assert len(infos) == 6 and rewards.shape == dones.shape == (6,)
        if dones.any():
            assert dones.all()
            episodes += 1
            assert all("terminal_observation" in i and "episode" in i for i in infos)
            totals = np.stack([i["totals"] for i in infos])
            np.testing.assert_array_equal(rewards, totals[:, 0] - np.delete(totals, 0, axis=1).max(axis=1))
            assert not np.array_equal(obs[0], infos[0]["terminal_observation"])
        else:
            assert (rewards == 0).all()
    assert episodes >= 2
    assert env.get_attr("players", indices=[0, 1]) == [kwargs["players"]] * 2
    assert env.env_is_wrapped(VecMonitor) == [False] * 6
    with pytest.raises(AttributeError):
        env.get_attr("no_such_thing")
    env.close()


def test_the_same_seed_deals_the_same_games() -> None:
    runs = []
    for _ in range(2):
        env = SushiGoSB3VecEnv(num_envs=3, players=3)
        env.seed(11)
        runs.append(env.reset())
    np.testing.assert_array_equal(runs[0], runs[1])


def test_sb3s_env_checker_accepts_the_single_game_env() -> None:
    import gymnasium as gym

    check_env(gym.make("sushigo/SushiGo-v0", players=3, actions="compact", normalized=True).unwrapped)


def test_an_illegal_action_is_refused() -> None:
    env = SushiGoSB3VecEnv(num_envs=2, players=3)
    env.reset()
    with pytest.raises(ValueError, match="not legal"):
        env.step(np.full(2, 2547))


@pytest.mark.slow
def test_maskable_ppo_trains_on_it_a_few_hundred_steps() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    env = SushiGoSB3VecEnv(num_envs=8, players=4, actions="compact", normalized=True)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    obs = env.reset()
    actions, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[np.arange(8), actions].all()


@pytest.mark.slow
def test_the_documented_sb3_example_runs() -> None:
    """docs/environments.md's SB3 VecEnv example as written, with a tiny step count."""
    import re
    from pathlib import Path

    pytest.importorskip("sb3_contrib")
    doc = (Path(__file__).resolve().parents[2] / "docs" / "environments.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```python\n(.*?)```", doc, flags=re.S) if "SushiGoSB3VecEnv" in b)
    assert ".learn(200_000)" in block
    namespace: dict = {}
    exec(compile(block.replace(".learn(200_000)", ".learn(256)"), "docs/environments.md", "exec"), namespace)
    assert namespace["model"].num_timesteps >= 256
