"""The environments used as researchers use them: centralised critics, sb3-contrib's masks, bot opponents
with options, the whole-game observation slots, the compact action encoding."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test.state_test import state_test  # noqa: E402
from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec  # noqa: E402

import sushigo.envs  # noqa: E402, F401
from sushigo.envs.encoding import (  # noqa: E402
    NORM_HIGH,
    NORM_LOW,
    compact_mask,
    compact_size,
    decode_compact,
    encode_compact,
    encode_observation,
    encode_state,
    observation_scale,
    offsets,
)
from sushigo.envs.gym_env import SushiGoEnv, SushiRollEnv  # noqa: E402
from sushigo.envs.pettingzoo_env import aec_env, parallel_env  # noqa: E402
from sushigo.envs.vector_env import SushiGoVectorEnv  # noqa: E402
from sushigo.sushi_go import new_game  # noqa: E402
from sushigo.sushi_go.actions import Pick  # noqa: E402
from sushigo.sushi_go.cards import deck_counts  # noqa: E402
from sushigo.sushi_go.observation import Observation  # noqa: E402
from sushigo.sushi_go.rules import State  # noqa: E402

#: the shared helpers of tests/conftest.py, reached as fixtures
Advance = Callable[[State, int, random.Random], None]
Reshuffle = Callable[[State, int, random.Random], State]

PZ_CONFIGS = [
    ("sushi-go", {"players": 4}),
    ("sushi-go", {"players": 3, "pass_both_ways": True, "soy_sauce": True}),
    ("sushi-go", {"players": 2, "dummy": True}),
    ("sushi-roll", {"players": 2}),
    ("sushi-roll", {"players": 3}),
]
VARIANTS = [
    {"players": 2},
    {"players": 3, "pass_both_ways": True},
    {"players": 4, "soy_sauce": True},
    {"players": 5},
    {"players": 2, "dummy": True},
]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo")


# ------------------------------------------------------------------ 1. PettingZoo state()


@pytest.mark.parametrize(("game", "kwargs"), PZ_CONFIGS)
def test_pettingzoo_state_test_passes_for_aec_and_parallel(game: str, kwargs: dict) -> None:
    state_test(aec_env(game, **kwargs), parallel_env(game, **kwargs), num_cycles=50)


@pytest.mark.parametrize(("game", "kwargs"), PZ_CONFIGS)
def test_a_centralised_critic_reads_state_every_step(game: str, kwargs: dict) -> None:
    """CTDE: the critic calls ``env.state()`` each step, on the env and through PettingZoo's converters."""
    rng = np.random.default_rng(0)
    envs: list[Any] = [parallel_env(game, **kwargs), aec_to_parallel(aec_env(game, **kwargs))]
    for env in envs:
        obs, _ = env.reset(seed=1)
        states = []
        while env.agents:
            s = env.state()
            assert env.state_space.contains(s)
            states.append(s)
            actions = {
                a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"])))
                if obs[a]["action_mask"].any()
                else 0
                for a in env.agents
            }
            obs, *_ = env.step(actions)
        assert env.state_space.contains(env.state())
        assert len({s.tobytes() for s in states}) > 5
    for aec in (aec_env(game, **kwargs), parallel_to_aec(parallel_env(game, **kwargs))):
        aec.reset(seed=2)
        for _agent in aec.agent_iter(max_iter=60):
            assert aec.state_space.contains(aec.state())
            ob, _, term, trunc, _ = aec.last()
            legal = np.flatnonzero(ob["action_mask"])
            aec.step(None if term or trunc else int(legal[0]) if len(legal) else 0)


def test_state_before_reset_is_a_clear_error() -> None:
    env = parallel_env("sushi-go", players=3)
    with pytest.raises(RuntimeError, match="reset"):
        env.state()


def test_global_state_holds_every_hand_and_the_pile() -> None:
    game = new_game(3, seed=4)
    vec = encode_state(game)
    hands = vec[: 13 * 3].reshape(3, 13)
    for s in range(3):
        assert hands[s].sum() == len(game.hands[s])
    assert vec.sum() > 0
    other = game.clone()
    other.hands[1], other.hands[2] = other.hands[2], other.hands[1]
    assert not np.array_equal(encode_state(other), vec)  # the critic does see hidden cards


# ------------------------------------------------------------------ 2. Gymnasium masks through wrappers


def test_action_masks_reach_through_gym_make_wrappers_as_sb3_contrib_looks_for_them() -> None:
    env = gym.make("sushigo/SushiGo-v0", players=3)
    getter = env.get_wrapper_attr("action_masks")
    with pytest.raises(RuntimeError, match="reset"):
        getter()
    _, info = env.reset(seed=0)
    np.testing.assert_array_equal(env.get_wrapper_attr("action_masks")(), info["action_mask"].astype(bool))
    sb3 = pytest.importorskip("sb3_contrib.common.maskable.utils")
    assert sb3.is_masking_supported(env)
    np.testing.assert_array_equal(sb3.get_action_masks(env), info["action_mask"].astype(bool))
    vec_env_mod = pytest.importorskip("stable_baselines3.common.vec_env")
    venv = vec_env_mod.DummyVecEnv([lambda: gym.make("sushigo/SushiGo-v0", players=3)])
    venv.reset()
    assert sb3.is_masking_supported(venv)
    masks = sb3.get_action_masks(venv)
    assert masks.shape == (1, env.action_space.n) and masks.any()


# ------------------------------------------------------------------ 3. opponents with options


def test_an_opponent_with_options() -> None:
    env = SushiGoEnv(players=3, opponents="mcts", opponent_options={"iterations": 7})
    env.reset(seed=0)
    assert {b.budget.iterations for b in env.bots.values()} == {7}
    env = SushiGoEnv(
        players=4,
        opponents=["random", ("mcts", {"iterations": 3}), {"name": "greedy", "options": {}}],
        opponent_options={},
    )
    _, info = env.reset(seed=1)
    assert [b.name for b in env.bots.values()] == ["random", "mcts", "greedy"]
    assert env.bots[2].budget.iterations == 3
    while True:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if done:
            break


def test_a_bad_opponent_fails_when_the_env_is_made() -> None:
    with pytest.raises(ValueError, match="iterationz"):
        SushiGoEnv(players=3, opponents="mcts", opponent_options={"iterationz": 5})
    with pytest.raises(ValueError, match="nosuchbot"):
        SushiGoEnv(players=3, opponents="nosuchbot")
    with pytest.raises(ValueError, match="name"):
        SushiGoEnv(players=3, opponents=[{"bot": "mcts"}, "random"])
    with pytest.raises(ValueError, match="iterationz"):
        SushiGoVectorEnv(num_envs=2, players=3, opponents=("mcts", {"iterationz": 5}))


def test_sushi_roll_opponent_with_options() -> None:
    env = SushiRollEnv(players=2, opponents="mcts", opponent_options={"iterations": 4})
    _, info = env.reset(seed=3)
    assert info["action_mask"].any()


class BatchStub:
    """A memoryless bot with ``act_batch``: plays the first legal pick; counts its calls."""

    name = "batch-stub"
    calls: list[int] = []  # noqa: RUF012

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def reset(self, seat: int, game: str, players: int) -> None:
        self.seat = seat

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        raise AssertionError("the vector env must use act_batch")

    def act_batch(self, observations: Sequence[Observation], legal: Sequence[Sequence[Pick]]) -> list[Pick]:
        BatchStub.calls.append(len(observations))
        assert all(obs.seat == self.seat for obs in observations)
        return [lg[0] for lg in legal]


class FirstLegal:
    """A plain bot (no act_batch) with memory across a game: one instance per game and seat."""

    name = "first-legal"

    def __init__(self, seed: int | None = None) -> None:
        self.turns = 0

    def reset(self, seat: int, game: str, players: int) -> None:
        self.turns = 0

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        self.turns += 1
        return legal[-1]


def _play_vector(env: SushiGoVectorEnv, seed: int) -> dict[str, Any]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        for g, core in enumerate(env.cores):
            np.testing.assert_array_equal(obs[g], encode_observation(core.observe(env.seat)))
        keys = rng.random(info["action_mask"].shape)
        keys[info["action_mask"] == 0] = -1
        obs, _rewards, terminated, _, info = env.step(keys.argmax(axis=1))
        if terminated.all():
            totals = info["totals"]
            for g, core in enumerate(env.cores):
                assert core.is_over()
                assert core.score_report()["totals"][: env.players] == totals[g].tolist()
            return info


def test_vector_env_uses_act_batch_and_per_game_bots() -> None:
    BatchStub.calls = []
    env = SushiGoVectorEnv(
        num_envs=5, players=3, seat=1, opponents=[f"{__name__}:BatchStub", f"{__name__}:FirstLegal"]
    )
    _play_vector(env, 4)
    assert BatchStub.calls and set(BatchStub.calls) == {5}
    per_game = env.opponent_bots[2]
    assert isinstance(per_game, list) and len(per_game) == 5 and per_game[0] is not per_game[1]
    assert len(BatchStub.calls) == 3 * (9 - 1)  # one call per turn but the forced last card's


def test_vector_env_with_named_bots_and_options_replays_through_the_core() -> None:
    env = SushiGoVectorEnv(
        num_envs=3, players=2, dummy=True, opponents="mcts", opponent_options={"iterations": 4}
    )
    _play_vector(env, 7)


# ------------------------------------------------------------------ 4. whole-game observation slots


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6), turns=st.integers(0, 30), data=st.data()
)
def test_new_slots_unchanged_when_only_hidden_information_changes(
    variant: dict,
    seed: int,
    turns: int,
    data: st.DataObject,
    reshuffle_hidden: Reshuffle,
    advance: Advance,
) -> None:
    game = new_game(seed=seed, **variant)
    rng = random.Random(seed)
    advance(game, turns, rng)
    seat = data.draw(st.integers(0, game.players - 1))
    other = reshuffle_hidden(game, seat, rng)
    a = encode_observation(game.observe(seat))
    b = encode_observation(other.observe(seat))
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(
        encode_observation(game.observe(seat), normalized=True),
        encode_observation(other.observe(seat), normalized=True),
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_earlier_and_unseen_slots_count_the_deck(variant: dict, advance: Advance) -> None:
    game = new_game(seed=3, **variant)
    rng = random.Random(3)
    cfg = game.config
    off = offsets(cfg)
    deck = np.array(deck_counts(cfg.soy_sauce))
    while True:
        for seat in range(game.players):
            vec = encode_observation(game.observe(seat))
            earlier = vec[off["earlier"] : off["earlier"] + 13]
            unseen = vec[off["unseen"] : off["unseen"] + 13]
            assert (unseen >= 0).all() and (earlier >= 0).all()
            finished = min(game.round, 2)
            assert earlier.sum() == sum(len(t) for rnd, _ in game.finished[:finished] for t in rnd)
            hidden = list(game.undealt())
            obs = game.observe(seat)
            for s, known in enumerate(obs.known_hands):
                hand = game.hands[s] if not game.is_over() else []
                if known is None:
                    hidden += hand
                else:
                    hidden += [game.drawn] if len(known) < len(hand) else []  # the controller's draw
            if cfg.dummy and not game.is_over():
                hidden += game.hands[2]
            np.testing.assert_array_equal(unseen, np.bincount(np.array(hidden, dtype=int), minlength=13))
            assert (earlier + unseen <= deck).all()
            norm = encode_observation(obs, normalized=True)
            assert norm.min() >= NORM_LOW and norm.max() <= NORM_HIGH
            np.testing.assert_allclose(norm * observation_scale(cfg), vec, rtol=1e-6)
        if game.is_over():
            break
        advance(game, 1, rng)


def test_normalized_env_observations_stay_in_their_box() -> None:
    for env in (SushiGoEnv(players=4, normalized=True), SushiRollEnv(players=3, normalized=True)):
        obs, info = env.reset(seed=0)
        for _ in range(200):
            assert env.observation_space.contains(obs), obs
            obs, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            if done:
                break


# ------------------------------------------------------------------ 5. compact action encoding


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_compact_encoding_round_trips_every_legal_action(variant: dict) -> None:
    rng = random.Random(5)
    seen_pairs = 0
    for seed in range(15):
        game = new_game(seed=seed, **variant)
        cfg = game.config
        while not game.is_over():
            for seat in range(game.players):
                legal = game.legal_actions(seat)
                codes = [encode_compact(p, cfg) for p in legal]
                assert len(set(codes)) == len(legal)
                assert all(0 <= c < compact_size(cfg) for c in codes)
                assert [decode_compact(c, cfg) for c in codes] == legal
                assert compact_mask(legal, cfg).sum() == len(legal)
                seen_pairs += sum(p.uses_chopsticks for p in legal)
            game.apply_turn([rng.choice(game.legal_actions(s)) for s in range(game.players)])
    assert seen_pairs > 0
    assert compact_size(new_game(seed=0, **variant).config) == (2548 if variant.get("dummy") else 182)


def test_compact_actions_in_every_environment() -> None:
    env = SushiGoEnv(players=4, actions="compact")
    assert env.action_space.n == 182
    _, info = env.reset(seed=1)
    np.testing.assert_array_equal(
        info["action_mask"], compact_mask(env.core.legal_actions(0), env.adapter.config)
    )
    penv = parallel_env("sushi-go", players=3, actions="compact")
    obs, _ = penv.reset(seed=0)
    while penv.agents:
        obs, *_ = penv.step({a: int(np.flatnonzero(obs[a]["action_mask"])[-1]) for a in penv.agents})
    venv = SushiGoVectorEnv(num_envs=4, players=4, actions="compact", opponents="random")
    _, info = venv.reset(seed=2)
    assert info["action_mask"].shape == (4, 182)
    while True:
        _, _, term, _, info = venv.step(info["action_mask"].argmax(axis=1))
        if term.all():
            break
    with pytest.raises(ValueError, match="compact"):
        SushiGoEnv(players=3, actions="tiny")
    with pytest.raises(ValueError):
        decode_compact(182, new_game(3, seed=0).config)


def test_the_environment_docs_examples_run() -> None:
    """docs/environments.md's examples run as written (the MaskablePPO ones and RLlib's have their own
    tests; the thirty-game REINFORCE run is left out for time)."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "environments.md").read_text(encoding="utf-8")
    namespace: dict = {}
    ran = 0
    for block in re.findall(r"```python\n(.*?)```", text, flags=re.S):
        if "MaskablePPO" in block or "REINFORCE" in block or "from ray" in block:
            continue
        exec(compile(block, "docs/environments.md", "exec"), namespace)
        ran += 1
    assert ran >= 4


def test_vector_env_batches_the_neural_bot_when_it_is_installed() -> None:
    from sushigo.bots import make_bot

    try:
        make_bot("neural", seed=0)
    except Exception as exc:  # the learned bot is optional (its weights, its extra)
        pytest.skip(f"no neural bot here: {exc}")
    env = SushiGoVectorEnv(num_envs=3, players=3, opponents="neural")
    _play_vector(env, 2)
    assert all(not isinstance(b, list) for b in env.opponent_bots.values())  # one batched bot per seat
