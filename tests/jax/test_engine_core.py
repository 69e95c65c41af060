"""The JAX engine agrees exactly with the core: every game it plays, random or policy-driven, of every
variant and player count, is replayed through the core (dealt through the core's explicit-chance API
from the JAX deal) with equal observation vectors and masks for every seat on every turn, and equal
score sheets, puddings, totals and winners at the end."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

np = pytest.importorskip("numpy")
jax = pytest.importorskip("jax")
pytest.importorskip("flax")
pytest.importorskip("gymnasium")

import jax.numpy as jnp  # noqa: E402

from sushigo import game  # noqa: E402
from sushigo import jax as sgj  # noqa: E402
from sushigo.envs.encoding import action_mask, compact_mask, encode_observation, observation_scale  # noqa: E402
from sushigo.sushi_go.actions import decode_action  # noqa: E402
from sushigo.sushi_go.score import CATEGORIES  # noqa: E402

GAME = "sushi-go"
VARIANTS: list[tuple[int, dict[str, bool]]] = [
    (2, {}),
    (3, {}),
    (4, {}),
    (5, {}),
    (3, {"pass_both_ways": True}),
    (4, {"pass_both_ways": True, "soy_sauce": True}),
    (5, {"soy_sauce": True, "strict_wasabi": True}),
    (2, {"soy_sauce": True}),
    (4, {"strict_wasabi": True}),
    (2, {"dummy": True}),
    (2, {"dummy": True, "dummy_outside_majorities": True}),
    (2, {"dummy": True, "soy_sauce": True, "strict_wasabi": True, "pass_both_ways": True}),
]
IDS = [f"{p}p-" + ("+".join(sorted(o)) or "base") for p, o in VARIANTS]
#: kept in the fast loop (each variant compiles its own functions: a few seconds each on the CPU)
FAST = {"4p-base", "2p-dummy+dummy_outside_majorities"}
PARAMS = [
    pytest.param(p, o, id=i, marks=() if i in FAST else pytest.mark.slow) for (p, o), i in zip(VARIANTS, IDS)
]
FAST_PARAMS = [pytest.param(p, o, id=i) for (p, o), i in zip(VARIANTS, IDS) if i in FAST]
#: half the games play uniformly random picks, half follow a random linear policy over the observation
GAMES = 6


def core_game(config: Any, deals: np.ndarray) -> Any:
    """The core game dealt as the JAX deal, through explicit chance: round, hand, card."""
    state = game.new_game(GAME, config.players, explicit_chance=True, **config.to_options())
    for card in deals.reshape(-1):
        assert state.is_chance_node()
        state.apply_chance(int(card))
    assert not state.is_chance_node()
    return state


def turn_fn(config: Any) -> Any:
    """One compiled function per config: observations, masks and every game's chosen codes."""

    def one(state: sgj.State, key: jax.Array, weights: jax.Array, use_policy: jax.Array) -> Any:
        obs = sgj.observe_all(state)
        mask = sgj.legal_action_mask(state)
        compact = sgj.legal_action_mask(state, compact=True)
        logits = obs @ weights  # (P, A): a fixed random linear policy, masked argmax
        greedy = jnp.argmax(jnp.where(mask, logits, -jnp.inf), axis=1).astype(jnp.int32)
        actions = jnp.where(use_policy, greedy, sgj.random_actions(state, key))
        return obs, mask, compact, actions, sgj.step(state, actions)

    return jax.jit(jax.vmap(one, in_axes=(0, 0, None, 0)))


def play_and_compare(players: int, options: dict[str, bool], seed: int) -> None:
    config = sgj.make_config(players, **options)
    key = jax.random.key(seed)
    k_init, k_w, key = jax.random.split(key, 3)
    states = jax.jit(jax.vmap(partial(sgj.init, config=config)))(jax.random.split(k_init, GAMES))
    weights = jax.random.normal(k_w, (sgj.obs_size(config), sgj.ACTION_SPACE_SIZE))
    use_policy = jnp.arange(GAMES) % 2 == 1
    deals = np.asarray(states.deals)
    cores = [core_game(config, deals[g]) for g in range(GAMES)]
    fn = turn_fn(config)
    steps = 0
    while True:
        key, sub = jax.random.split(key)
        obs, mask, compact, actions, nxt = fn(states, jax.random.split(sub, GAMES), weights, use_policy)
        obs, mask, compact, actions = (np.asarray(a) for a in (obs, mask, compact, actions))
        done = np.asarray(states.terminated)
        for g, core in enumerate(cores):
            assert bool(done[g]) == core.is_over()
            for seat in range(players):
                where = f"game {g} seat {seat} step {steps}"
                np.testing.assert_array_equal(
                    obs[g, seat], encode_observation(core.observe(seat)), err_msg=where
                )
                legal = [] if core.is_over() else core.legal_actions(seat)
                np.testing.assert_array_equal(mask[g, seat], action_mask(legal).astype(bool), err_msg=where)
                np.testing.assert_array_equal(
                    compact[g, seat], compact_mask(legal, config).astype(bool), err_msg=where
                )
        if done.all():
            break
        for g, core in enumerate(cores):
            core.apply_turn([decode_action(int(a)) for a in actions[g]])
        states = nxt
        steps += 1
    rp = np.asarray(states.round_points)
    totals = np.asarray(jax.vmap(sgj.totals)(states))
    winners = np.asarray(jax.vmap(sgj.winners)(states))
    puds = np.asarray(states.puddings)
    pp = np.asarray(jax.vmap(sgj.pudding_points)(states))
    rewards = np.asarray(states.rewards)
    for g, core in enumerate(cores):
        report = core.score_report()
        assert report["rounds"] == [
            {"points": [dict(zip(CATEGORIES, sheet)) for sheet in rnd]} for rnd in rp[g].tolist()
        ]
        assert report["pudding_counts"] == puds[g].tolist()
        assert report["pudding_points"] == pp[g].tolist()
        assert report["totals"] == totals[g].tolist()
        won = report["winners"]
        assert won == [int(s) for s in np.flatnonzero(winners[g])]
        expected = [(1.0 if len(won) == 1 else 0.0) if s in won else -1.0 for s in range(players)]
        assert rewards[g].tolist() == expected


@pytest.mark.parametrize(("players", "options"), PARAMS)
def test_games_replay_exactly_through_the_core(players: int, options: dict[str, bool]) -> None:
    play_and_compare(players, options, seed=players * 13 + len(options))


@pytest.mark.parametrize(("players", "options"), FAST_PARAMS)
def test_normalised_observation_and_scale_equal_the_environments(
    players: int, options: dict[str, bool]
) -> None:
    config = sgj.make_config(players, **options)
    np.testing.assert_array_equal(sgj.observation_scale(config), observation_scale(config))
    state = jax.jit(sgj.init, static_argnums=1)(jax.random.key(3), config)
    core = core_game(config, np.asarray(state.deals))
    observe = jax.jit(partial(sgj.observe, normalized=True))
    np.testing.assert_allclose(
        np.asarray(observe(state, 1)),
        encode_observation(core.observe(1), normalized=True),
        rtol=1e-6,
    )
