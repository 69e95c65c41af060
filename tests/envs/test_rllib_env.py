"""The RLlib-facing wrapper: flat Box observations beside float masks (never all zero where a game has
waiting agents), RLlib's ``__all__`` flags, ``agents`` naming every agent a step reports on (RLlib's
check); the error without RLlib (simulated, so it runs either way); the RLlib PPO example itself runs
only where RLlib imports."""

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
        # RLlib checks every key of step's dicts against ``agents``, the final step's too
        assert set(obs) == set(rewards) == set(env.agents)
        assert set(terms) - {"__all__"} <= set(env.agents) and set(truncs) - {"__all__"} <= set(env.agents)
        if terms["__all__"]:
            break
        assert not any(rewards.values()) and not env.game_over
    assert env.game_over and set(rewards) == set(env.possible_agents) and steps > 5
    assert all(terms[a] for a in env.possible_agents)


def test_without_rllib_the_error_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # RLlib's absence, simulated whether or not it is installed: a None entry in sys.modules makes the
    # import fail with ImportError (monkeypatch restores the entry afterwards)
    monkeypatch.setitem(sys.modules, "ray.rllib.env.multi_agent_env", None)
    with pytest.raises(ImportError, match=r"ray\[rllib\]"):
        rllib_env({"players": 2})


@pytest.mark.parametrize(
    "config",
    [
        {"game": "sushi-go", "players": 2},
        {"game": "sushi-roll", "players": 3},
        {"game": "sushi-go-party", "players": 3, "menu": "master_menu"},
    ],
)
def test_rllib_own_env_check_passes(config: dict) -> None:
    # the check RLlib's env runner makes before sampling: reset, one step of unmasked random actions
    # (usually illegal, so the game ends at once), every key of the results among ``env.agents``
    if not _rllib_imports():
        pytest.skip("RLlib does not import here (pip install 'ray[rllib]')")
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    env = rllib_env(config)
    check_multiagent_environments(env)
    env.close()


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
