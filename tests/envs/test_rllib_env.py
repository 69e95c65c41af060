"""The RLlib-facing wrapper: flat Box observations beside float masks (never all zero where a game has
waiting agents), RLlib's ``__all__`` flags; the RLlib PPO example itself runs only where RLlib imports."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

import numpy as np

from sushigo.envs.rllib_env import FlatMaskEnv, rllib_env

ROOT = Path(__file__).resolve().parents[2]


def _rllib_imports() -> bool:
    if importlib.util.find_spec("ray") is None:
        return False
    try:
        import ray.rllib  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.parametrize(
    "config",
    [
        {"game": "sushi-go", "players": 2},
        {"game": "sushi-roll", "players": 3},
        {"game": "sushi-go-party", "players": 3, "menu": "master_menu"},
    ],
)
def test_flat_observations_float_masks_and_all_flags(config: dict) -> None:
    env = FlatMaskEnv(config)
    waiting = env.env.noop is not None
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    steps = 0
    while True:
        for agent, o in obs.items():
            space = env.observation_spaces[agent]
            assert space.contains(o), agent
            assert o["observations"].dtype == np.float32 and o["action_mask"].dtype == np.float32
            if waiting:
                assert o["action_mask"].any()
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any() else 0
            for a, o in obs.items()
        }
        obs, rewards, terms, truncs, _ = env.step(actions)
        steps += 1
        assert "__all__" in terms and "__all__" in truncs
        if terms["__all__"]:
            break
        assert not any(rewards.values()) and env.agents
    assert not env.agents and set(rewards) == set(env.possible_agents) and steps > 5
    assert all(terms[a] for a in env.possible_agents)


def test_without_rllib_the_error_names_it() -> None:
    if _rllib_imports():
        pytest.skip("RLlib is importable here")
    with pytest.raises(ImportError, match=r"ray\[rllib\]"):
        rllib_env({"players": 2})


@pytest.mark.slow
def test_the_rllib_example_trains_one_tiny_iteration() -> None:
    if not _rllib_imports():
        pytest.skip("RLlib does not import here (pip install 'ray[rllib]')")
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "rllib_ppo.py"), "--iterations", "1", "--batch", "256",
         "--eval-games", "2"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    assert "win share" in run.stdout
