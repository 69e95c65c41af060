"""The Gymnasium environments pass Gymnasium's checker and play whole games against named bots."""

from __future__ import annotations

import pytest

gym = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import sushigo.envs  # noqa: E402, F401
from sushigo.bots import bot_names  # noqa: E402
from sushigo.envs.encoding import action_mask, encode_observation, obs_size, offsets  # noqa: E402
from sushigo.envs.gym_env import SushiGoEnv, SushiRollEnv  # noqa: E402
from sushigo.errors import IllegalActionError  # noqa: E402
from sushigo.sushi_go.options import Config  # noqa: E402

CONFIGS = [
    ("sushigo/SushiGo-v0", {"players": 4}),
    ("sushigo/SushiGo-v0", {"players": 5, "pass_both_ways": True, "soy_sauce": True}),
    ("sushigo/SushiGo-v0", {"players": 2, "dummy": True}),
    ("sushigo/SushiRoll-v0", {"players": 2}),
    ("sushigo/SushiRoll-v0", {"players": 4}),
    ("sushigo/SushiGo-v0", {"players": 3, "normalized": True, "actions": "compact"}),
    ("sushigo/SushiRoll-v0", {"players": 3, "normalized": True}),
]


def play(env: gym.Env, seed: int) -> tuple[float, dict]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return reward, info
        assert reward == 0.0


@pytest.mark.parametrize(("env_id", "kwargs"), CONFIGS)
def test_check_env_passes(env_id: str, kwargs: dict) -> None:
    env = gym.make(env_id, **kwargs)
    check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize(("env_id", "kwargs"), CONFIGS)
def test_a_masked_random_learner_plays_to_the_end_with_the_margin_reward(env_id: str, kwargs: dict) -> None:
    env = gym.make(env_id, **kwargs)
    reward, info = play(env, 3)
    totals = info["totals"]
    assert reward == totals[0] - max(totals[1:])


def test_module_prefixed_id_and_the_win_reward() -> None:
    env = gym.make("sushigo.envs:sushigo/SushiGo-v0", players=3, reward="win")
    reward, info = play(env, 5)
    winners = info["winners"]
    assert reward == (-1.0 if 0 not in winners else (1.0 if len(winners) == 1 else 0.0))


@pytest.mark.parametrize(
    "bot", [b for b in ("greedy", "heuristic") if b in bot_names("sushi-go")] or ["random"]
)
def test_named_bot_opponents_play(bot: str) -> None:
    env = SushiGoEnv(players=3, opponents=bot)
    play(env, 1)
    assert all(b.name for b in env.bots.values())


def test_opponents_listed_per_seat() -> None:
    env = SushiGoEnv(players=3, opponents=["random", "random"], seat=2)
    play(env, 2)
    with pytest.raises(ValueError, match="need 3 bot names"):
        SushiGoEnv(players=4, opponents=["random"])


def test_the_vector_is_built_from_the_seat_observation_and_the_mask_is_exactly_the_legal_picks() -> None:
    env = SushiGoEnv(players=2, dummy=True, seat=1)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(12):
        state = env.core
        np.testing.assert_array_equal(obs, encode_observation(state.observe(1)))
        np.testing.assert_array_equal(info["action_mask"], action_mask(state.legal_actions(1)))
        assert env.action_masks().sum() == len(state.legal_actions(1))
        obs, _, _, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))


def test_layout_offsets_add_up() -> None:
    for players, dummy in [(2, False), (3, False), (5, False), (2, True)]:
        cfg = Config(players, dummy=dummy)
        assert offsets(cfg)["size"] == obs_size(cfg)


def test_illegal_actions_terminate_or_raise() -> None:
    env = SushiGoEnv(players=4)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"]
    with pytest.raises(RuntimeError):
        env.step(0)
    strict = SushiGoEnv(players=4, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_sushi_roll_learner_only_acts_on_its_turns() -> None:
    env = SushiRollEnv(players=3, seat=1)
    _obs, info = env.reset(seed=8)
    assert env.core.to_act() == (1,)
    assert info["action_mask"].any()


def test_render_ansi() -> None:
    env = SushiGoEnv(players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text is not None and '"hand"' in text
