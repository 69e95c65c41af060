"""The JAX engine's contract beyond exactness: pgx-style stepping, hidden information, uniform random
play, the documented example and the docstring example."""

from __future__ import annotations

import doctest
import re
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
jax = pytest.importorskip("jax")
pytest.importorskip("flax")

import jax.numpy as jnp  # noqa: E402

from sushigo import jax as sgj  # noqa: E402
from sushigo.errors import InvalidActionError  # noqa: E402
from sushigo.sushi_go.actions import decode_action  # noqa: E402
from sushigo.sushi_go.cards import Card  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CONFIG = sgj.make_config(4)


@pytest.fixture(scope="module")
def fns() -> dict[str, Any]:
    return {
        "init": jax.jit(sgj.init, static_argnums=1),
        "step": jax.jit(sgj.step),
        "observe": jax.jit(sgj.observe),
        "mask": jax.jit(sgj.legal_action_mask),
        "random": jax.jit(sgj.random_actions),
    }


def test_a_game_steps_to_the_end_with_rewards_only_on_the_last_step(fns: dict[str, Any]) -> None:
    state = fns["init"](jax.random.key(0), CONFIG)
    key = jax.random.key(1)
    steps = 0
    while not bool(state.terminated):
        assert not np.asarray(state.rewards).any()
        key, sub = jax.random.split(key)
        state = fns["step"](state, fns["random"](state, sub))
        steps += 1
    assert steps == 3 * (CONFIG.hand_size - 1)  # the forced last card of a round is not a step
    rewards = np.asarray(state.rewards)
    assert sorted(set(rewards.tolist())) in ([-1.0, 1.0], [-1.0, 0.0], [0.0])
    assert not np.asarray(fns["mask"](state)).any()
    totals = np.asarray(sgj.totals(state))
    np.testing.assert_array_equal(
        totals, np.asarray(state.round_points)[:, :, -1].sum(axis=0) + np.asarray(sgj.pudding_points(state))
    )
    after = fns["step"](state, jnp.zeros(4, dtype=jnp.int32))
    assert not np.asarray(after.rewards).any()
    for name in ("hands", "tableaux", "banked", "puddings", "round", "turn", "picks"):
        np.testing.assert_array_equal(np.asarray(getattr(after, name)), np.asarray(getattr(state, name)))


def test_an_observation_does_not_depend_on_hidden_cards(fns: dict[str, Any]) -> None:
    state = fns["init"](jax.random.key(5), CONFIG)
    key = jax.random.key(6)
    key, sub = jax.random.split(key)
    state = fns["step"](state, fns["random"](state, sub))  # seat 0's first hand is now seat 1's
    deals = np.asarray(state.deals).copy()
    rest = deals[1:].reshape(-1)
    np.random.default_rng(0).shuffle(rest)  # the later rounds are hidden
    deals[1:] = rest.reshape(deals[1:].shape)
    hands = np.asarray(state.hands).copy()
    hands[[2, 3]] = hands[[3, 2]]  # seat 0 has seen neither of these hands yet
    twin = state.replace(deals=jnp.asarray(deals), hands=jnp.asarray(hands))
    np.testing.assert_array_equal(np.asarray(fns["observe"](twin, 0)), np.asarray(fns["observe"](state, 0)))
    assert not np.array_equal(np.asarray(fns["observe"](twin, 2)), np.asarray(fns["observe"](state, 2)))


def test_random_actions_are_uniform_over_the_legal_picks(fns: dict[str, Any]) -> None:
    state = fns["init"](jax.random.key(2), CONFIG)
    hand = np.zeros((4, 13), dtype=np.int32)
    hand[:, [Card.TEMPURA, Card.WASABI]] = [2, 1]
    tableaux = np.zeros((4, 13), dtype=np.int32)
    tableaux[0, Card.CHOPSTICKS] = 1
    state = state.replace(hands=jnp.asarray(hand), tableaux=jnp.asarray(tableaux))
    codes = np.asarray(
        jax.vmap(lambda k: sgj.random_actions(state, k))(jax.random.split(jax.random.key(3), 20000))
    )
    legal = np.flatnonzero(np.asarray(fns["mask"](state))[0])
    assert {decode_action(int(c)).to_text() for c in legal} == {
        "tempura", "wasabi", "tempura+tempura", "tempura+wasabi", "wasabi+tempura"
    }  # fmt: skip
    assert set(np.unique(codes[:, 0])) == set(legal)
    freq = np.bincount(codes[:, 0], minlength=legal.max() + 1)[legal] / len(codes)
    assert np.allclose(freq, 1 / len(legal), atol=0.02)
    assert set(np.unique(codes[:, 1])) == set(legal[:2])  # no chopsticks, no pairs


def test_bad_configs_are_refused_as_the_core_refuses_them() -> None:
    with pytest.raises(InvalidActionError, match="players"):
        sgj.make_config(6)
    with pytest.raises(InvalidActionError, match="dummy"):
        sgj.make_config(3, dummy=True)
    with pytest.raises(InvalidActionError, match="unknown option"):
        sgj.make_config(3, no_such_rule=True)


@pytest.mark.slow  # eager JAX: op by op, slow on a loaded machine
def test_docstring_example() -> None:
    result = doctest.testmod(sgj, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.slow
def test_the_example_of_docs_jax_md_runs() -> None:
    blocks = re.findall(
        r"```python\n(.*?)```", (ROOT / "docs/jax.md").read_text(encoding="utf-8"), flags=re.S
    )
    assert blocks
    for block in blocks:
        scope: dict[str, Any] = {}
        exec(compile(block.replace("4096", "64"), "docs/jax.md", "exec"), scope)
        assert bool(scope["state"].terminated.all())


@pytest.mark.slow  # one more compilation, ~10 s on a loaded machine
def test_the_dummy_controller_picks_uniformly_among_its_card_and_dummy_card_pairs() -> None:
    config = sgj.make_config(2, dummy=True)
    state = jax.jit(sgj.init, static_argnums=1)(jax.random.key(4), config)
    ctrl = int(sgj.controller(state))
    hands = np.zeros((2, 13), dtype=np.int32)
    hands[:, [Card.TEMPURA, Card.WASABI, Card.PUDDING]] = [2, 1, 0]
    hands[ctrl, Card.PUDDING] = 1
    tableaux = np.zeros((3, 13), dtype=np.int32)
    tableaux[ctrl, Card.CHOPSTICKS] = 1
    state = state.replace(hands=jnp.asarray(hands), tableaux=jnp.asarray(tableaux))
    draw = jax.jit(jax.vmap(lambda k: sgj.random_actions(state, k)))
    codes = np.asarray(draw(jax.random.split(jax.random.key(8), 30000)))[:, ctrl]
    legal = np.flatnonzero(np.asarray(jax.jit(sgj.legal_action_mask)(state))[ctrl])
    assert len(legal) > 10 and set(np.unique(codes)) == set(legal)
    freq = np.bincount(codes, minlength=legal.max() + 1)[legal] / len(codes)
    assert np.allclose(freq, 1 / len(legal), atol=0.015)


def test_make_binds_a_config_with_the_sizes_a_trainer_needs() -> None:
    env = sgj.make(4, soy_sauce=True)
    assert env == sgj.make(sgj.make_config(4, soy_sauce=True))  # hashable: a static argument
    assert (env.num_players, env.num_actions, env.num_compact_actions) == (4, 2548, 182)
    state = jax.jit(env.init)(jax.random.key(0))
    assert env.observation_shape == (sgj.obs_size(env.config),) == tuple(jax.jit(env.observe)(state, 0).shape)
    assert int(state.deals.size) == 3 * 4 * 8 and state.config == env.config


@pytest.mark.parametrize("blocked", ["jax", "flax"])
def test_without_jax_the_import_names_the_extra(blocked: str) -> None:
    import subprocess
    import sys

    code = f"import sys; sys.modules[{blocked!r}] = None\ntry:\n    import sushigo.jax\nexcept ImportError as exc:\n    print(type(exc).__name__, exc)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    line = result.stdout.strip()
    assert line.startswith("MissingExtraError") and blocked in line and "sushigo[jax]" in line, (
        line + result.stderr
    )


def test_the_tables_are_the_batch_engines_read_from_the_same_card_types() -> None:
    pytest.importorskip("gymnasium")
    from sushigo.batch import tables as batch
    from sushigo.jax import tables

    ours = [tables.TEMPURA_SET, tables.TEMPURA_POINTS, tables.SASHIMI_SET, tables.SASHIMI_POINTS]
    ours += [tables.DUMPLING_CAP, tables.WASABI_FACTOR, tables.MAKI_FIRST, tables.MAKI_SECOND]
    ours += [tables.SOY_POINTS, tables.PUDDING_POINTS]
    assert ours == [int(x) for x in batch.RULES]
    for name in ("MAKI", "NIGIRI", "DUMPLINGS", "OWN_FIRST", "OWN_SECOND", "OWN_USES"):
        np.testing.assert_array_equal(getattr(tables, name), getattr(batch, name), err_msg=name)
    np.testing.assert_array_equal(tables.COLOUR_ONEHOT.argmax(axis=1), batch.COLOUR_GROUP)
    for soy in (False, True):
        np.testing.assert_array_equal(tables.deck(sgj.make_config(3, soy_sauce=soy)), batch.deck_array(soy))
