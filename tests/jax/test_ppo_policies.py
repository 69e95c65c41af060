"""The JAX policies against the NumPy bots they port, on positions sampled from the core's games.

The encoder must give the ``neural`` bot's 258 inputs exactly (else a network trained here plays
differently in the bot), the shipped network must give the bot's action probabilities, and the
``greedy`` port must pick among the picks the Python bot rates best.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("flax")

import jax.numpy as jnp  # noqa: E402

from sushigo.bots import make_bot  # noqa: E402
from sushigo.bots.features import choices, encode  # noqa: E402
from sushigo.bots.nn import DEFAULT_WEIGHTS, load  # noqa: E402
from sushigo.game import new_game  # noqa: E402
from sushigo.jax import policies as P  # noqa: E402

SETTINGS: list[tuple[int, dict[str, bool]]] = [
    (2, {}),
    (2, {"dummy": True}),
    (3, {"pass_both_ways": True}),
    (4, {"soy_sauce": True}),
    (5, {"strict_wasabi": True}),
    (2, {"dummy": True, "dummy_outside_majorities": True, "soy_sauce": True}),
]


def positions(per_setting: int, seed: int) -> list[tuple[Any, list[Any]]]:
    """(observation, legal picks) of seats that owe a pick, from random games of every setting."""
    rng = random.Random(seed)
    out: list[tuple[Any, list[Any]]] = []
    for players, options in SETTINGS:
        state = new_game("sushi-go", players, seed=rng.randrange(1 << 30), **options)
        taken = 0
        while not state.is_over() and taken < per_setting:
            picks = []
            for s in range(players):
                legal = state.legal_actions(s)
                if rng.random() < 0.35:
                    out.append((state.observe(s), legal))
                    taken += 1
                picks.append(rng.choice(legal))
            state.apply_turn(picks)
        # chopsticks pairs and later rounds are rare in random play: look at the end too
        if state.is_over():
            continue
    return out


@pytest.fixture(scope="module")
def sampled() -> list[tuple[Any, list[Any]]]:
    return positions(24, seed=7)


def _stack(views: list[P.SeatView]) -> P.SeatView:
    return P.SeatView(*[np.stack(v) for v in zip(*views)])


def test_encode_equals_the_bots_features(sampled: list[tuple[Any, list[Any]]]) -> None:
    views = _stack([P.view_from_observation(o) for o, _ in sampled])
    got = np.asarray(jax.jit(jax.vmap(P.encode))(views))
    want = np.asarray([encode(o) for o, _ in sampled], np.float32)
    assert got.shape == want.shape == (len(sampled), 258)
    np.testing.assert_allclose(got, want, atol=1e-6)


@pytest.mark.slow
def test_the_shipped_network_gives_the_bots_probabilities(sampled: list[tuple[Any, list[Any]]]) -> None:
    net = load()
    params, hidden = P.load_network()
    views = _stack([P.view_from_observation(o) for o, _ in sampled])
    masks = np.stack([P.mask_from_picks(legal) for _, legal in sampled])
    x = jax.jit(jax.vmap(P.encode))(views)
    logits, values = jax.jit(P.network_logits, static_argnums=1)(params, hidden, x, jnp.asarray(masks))
    logits = np.asarray(logits)
    probs = np.asarray(jax.nn.softmax(logits, axis=-1))
    want_logits, want_values = net.forward([encode(o) for o, _ in sampled])
    np.testing.assert_allclose(np.asarray(values), want_values, atol=1e-4)
    # the same file at every size (the bot's own default is the three-to-five network at those sizes)
    bot = make_bot("neural", seed=0, weights=str(DEFAULT_WEIGHTS))
    for row, (obs, legal) in enumerate(sampled):
        opts = choices(legal)
        scores = np.asarray(net.pick_logits(want_logits[row], opts), np.float64)
        p = np.exp(scores - scores.max())
        p /= p.sum()
        idx = [P.action_index(o) for o in opts]
        np.testing.assert_allclose(probs[row, idx], p, atol=1e-4)
        assert math.isclose(float(probs[row].sum()), 1.0, abs_tol=1e-4)  # nothing off the canonical picks
        best = int(np.argmax(logits[row]))
        assert P.pick_from_action(best, legal) == bot.act(obs, legal)


@pytest.mark.slow
def test_greedy_port_picks_what_the_bot_rates_best(sampled: list[tuple[Any, list[Any]]]) -> None:
    bot = make_bot("greedy", seed=0)
    views = _stack([P.view_from_observation(o) for o, _ in sampled])
    masks = jnp.asarray(np.stack([P.mask_from_picks(legal) for _, legal in sampled]))
    keys = jax.random.split(jax.random.PRNGKey(0), len(sampled))
    values = np.asarray(jax.jit(jax.vmap(P.greedy_values))(views))
    picked = np.asarray(jax.jit(jax.vmap(P.greedy_policy))(views, masks, keys))
    pairs = 0
    for row, (obs, legal) in enumerate(sampled):
        seat = obs.seat
        want = []
        for pick in legal:
            v = bot.value(obs, seat, tuple(int(c) for c in pick.cards))
            if pick.dummy is not None:
                v += 0.5 * bot.value(obs, 1 - seat, (int(pick.dummy),))
            want.append(v)
            pairs += len(pick.cards) == 2
        got = [values[row, P.action_index(p)] for p in legal]
        np.testing.assert_allclose(got, want, atol=1e-5)
        top = max(want)
        best = {P.action_index(p) for p, v in zip(legal, want) if v >= top - 1e-9}
        assert int(picked[row]) in best
        # and the Python bot, whatever its tie-break, picks in the same set
        assert P.action_index(bot.act(obs, legal)) in best
    assert pairs > 0  # chopsticks pairs were among the positions


def test_actions_round_trip_and_random_policy_stays_legal() -> None:
    state = new_game("sushi-go", 2, seed=3, dummy=True)
    legal = state.legal_actions(state.observe(0).dummy_controller or 0)
    mask = P.mask_from_picks(legal)
    assert mask.sum() == len(legal)
    for p in legal:
        assert P.pick_from_action(P.action_index(p), legal) == p
    keys = jax.random.split(jax.random.PRNGKey(1), 64)
    drawn = np.asarray(jax.vmap(P.random_policy, in_axes=(None, 0))(jnp.asarray(mask), keys))
    assert mask[drawn].all()
    with pytest.raises(ValueError, match="not among"):
        P.pick_from_action(int(np.flatnonzero(~mask)[0]), legal)


def test_weights_round_trip_through_the_bots_format() -> None:
    params = P.init_params(jax.random.PRNGKey(0), (16, 8))
    arrays = P.to_arrays(params)
    assert [k for k in arrays] == ["w0", "b0", "w1", "b1", "wp", "bp", "wv", "bv"]
    assert arrays["w0"].shape == (258, 16) and arrays["wp"].shape == (8, 195)
    back, hidden = P.from_arrays(arrays)
    assert hidden == (16, 8)
    for a, b in zip(jax.tree_util.tree_leaves(params), jax.tree_util.tree_leaves(back)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
