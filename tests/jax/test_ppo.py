"""PPO on the JAX engine: the views the network reads, the advantages, and a compiled iteration.

The view test is what makes a network trained here the one the ``neural`` bot plays: on every turn of
games played by the JAX engine, the inputs built from the engine's state equal the bot's inputs built
from the core's observation of the same game.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("optax")

import jax.numpy as jnp  # noqa: E402

from sushigo import game  # noqa: E402
from sushigo.bots.features import encode  # noqa: E402
from sushigo.jax import policies as P  # noqa: E402
from sushigo.jax.engine import init, make_config, random_actions, step  # noqa: E402
from sushigo.jax.ppo import PPOConfig, compiled, gae, sample  # noqa: E402
from sushigo.sushi_go.actions import decode_action  # noqa: E402


def test_gae_matches_a_plain_loop() -> None:
    rng = np.random.default_rng(0)
    t, n, lam = 7, 3, 0.9
    reward = rng.normal(size=(t, n)).astype(np.float32)
    value = rng.normal(size=(t, n)).astype(np.float32)
    done = rng.random((t, n)) < 0.3
    last = rng.normal(size=n).astype(np.float32)
    adv, ret = gae(jnp.asarray(reward), jnp.asarray(value), jnp.asarray(done), jnp.asarray(last), lam)
    want = np.zeros((t, n), np.float32)
    for j in range(n):
        running, nxt = 0.0, last[j]
        for i in reversed(range(t)):
            if done[i, j]:
                running, nxt = 0.0, 0.0
            delta = reward[i, j] + nxt - value[i, j]
            running = delta + lam * running
            want[i, j] = running
            nxt = value[i, j]
    np.testing.assert_allclose(np.asarray(adv), want, atol=1e-5)
    np.testing.assert_allclose(np.asarray(ret), want + value, atol=1e-5)


def test_sample_draws_legal_actions_with_the_softmax_frequencies() -> None:
    logits = jnp.asarray([[0.0, P.MASKED, 1.0, P.MASKED, -1.0], [P.MASKED, P.MASKED, P.MASKED, 2.0, P.MASKED]])
    draws = np.asarray(jax.vmap(lambda k: sample(k, logits))(jax.random.split(jax.random.PRNGKey(0), 20000)))
    assert set(draws[:, 1]) == {3}
    freq = np.bincount(draws[:, 0], minlength=5) / len(draws)
    want = np.asarray(jax.nn.softmax(logits[0]))
    np.testing.assert_allclose(freq, want, atol=0.015)
    assert freq[1] == freq[3] == 0


def _core(config: object, deals: np.ndarray) -> object:
    cfg = config
    state = game.new_game("sushi-go", cfg.players, explicit_chance=True, **cfg.to_options())  # type: ignore[attr-defined]
    for card in deals.reshape(-1):
        state.apply_chance(int(card))
    return state


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "options"), [(3, {"pass_both_ways": True, "soy_sauce": True}), (2, {"dummy": True})]
)
def test_engine_views_give_the_bots_inputs(players: int, options: dict[str, bool]) -> None:
    config = make_config(players, **options)
    games = 2
    states = jax.vmap(partial(init, config=config))(jax.random.split(jax.random.PRNGKey(players), games))
    cores = [_core(config, np.asarray(states.deals)[g]) for g in range(games)]
    seats = jnp.arange(players)

    @jax.jit
    def turn(states: object, key: jax.Array) -> tuple[jax.Array, jax.Array, object]:
        views = jax.vmap(jax.vmap(P.seat_view, in_axes=(None, 0)), in_axes=(0, None))(states, seats)
        x = jax.vmap(jax.vmap(P.encode))(views)
        actions = jax.vmap(random_actions)(states, jax.random.split(key, games))
        return x, actions, jax.vmap(step)(states, actions)

    key = jax.random.PRNGKey(1)
    checked = 0
    while not all(c.is_over() for c in cores):  # type: ignore[attr-defined]
        key, sub = jax.random.split(key)
        x, actions, states = turn(states, sub)
        x, actions = np.asarray(x), np.asarray(actions)
        for g, core in enumerate(cores):
            for s in range(players):
                want = encode(core.observe(s))  # type: ignore[attr-defined]
                np.testing.assert_allclose(x[g, s], want, atol=1e-6, err_msg=f"game {g} seat {s}")
                checked += 1
            core.apply_turn([decode_action(int(a)) for a in actions[g]])  # type: ignore[attr-defined]
    assert checked > 20 * players


#: the configuration ``test_ppo_train``'s command line makes too: one compilation serves both files
SHARED = PPOConfig(players=2, envs=4, rollout=8, hidden=(8,), opponent="greedy", epochs=1, minibatches=2)


@pytest.mark.slow
@pytest.mark.parametrize("cfg", [SHARED, replace(SHARED, opponent="self")], ids=["greedy", "self"])
def test_iterations_compile_learn_and_stay_finite(cfg: PPOConfig) -> None:
    ppo = compiled(cfg)
    run = ppo.start(jax.random.PRNGKey(0))
    before = P.to_arrays(run.params)
    games = 0.0
    for _ in range(4):  # 32 turns: every two-player game (27 turns) ends once
        run, metrics = ppo.iterate(run)
        stats = {k: float(v) for k, v in metrics.items()}
        assert all(np.isfinite(v) for v in stats.values()), stats
        games += stats["games"]
        if stats["games"] and cfg.opponent == "self":  # every seat learns: the shares of a game sum to 1
            assert stats["win_share"] == pytest.approx(0.5)
    assert games == 4
    after = P.to_arrays(run.params)
    assert any(not np.allclose(before[k], after[k]) for k in before)
    if cfg.opponent == "greedy":  # the command's evaluation (same static arguments: compiled once)
        share = float(ppo.evaluate(run.params, jax.random.PRNGKey(1), games=2, opponent="greedy"))
        assert 0.0 <= share <= 1.0
