"""The batch engine agrees exactly with the core: every game replays through the core's records."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from sushigo.batch import engine  # noqa: E402
from sushigo.batch.engine import BatchResult, SushiGoBatch, make_config, random_policy, run, simulate  # noqa: E402
from sushigo.envs.encoding import action_mask, encode_observation  # noqa: E402
from sushigo.game import load_record  # noqa: E402
from sushigo.sushi_go.actions import decode_action  # noqa: E402
from sushigo.sushi_go.cards import Card  # noqa: E402
from sushigo.sushi_go.rules import State  # noqa: E402

VARIANTS = [
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
BACKENDS = [
    "numpy",
    pytest.param("numba", marks=pytest.mark.skipif(not engine.numba_available(), reason="no numba")),
]


def assert_matches_core(result: BatchResult) -> None:
    for g in range(len(result)):
        state = load_record(result.record(g))
        assert state.is_over()
        assert state.score_report() == result.score_report(g), f"game {g}"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("players", "options"), VARIANTS, ids=IDS)
def test_random_games_replay_exactly_through_the_core(backend: str, players: int, options: dict) -> None:
    result = simulate(players, 400, seed=players * 7 + len(options), backend=backend, chunk=150, **options)  # type: ignore[arg-type]
    assert len(result) == 400
    assert_matches_core(result)


@pytest.mark.parametrize("backend", BACKENDS)
def test_random_play_uses_chopsticks_pairs_and_every_card(backend: str) -> None:
    result = simulate(4, 500, seed=3, backend=backend)  # type: ignore[arg-type]
    assert (result.picks[..., 1] >= 0).sum() > 100
    played = np.bincount(result.picks[result.picks >= 0].ravel(), minlength=13)
    assert (played[:12] > 0).all()


@pytest.mark.parametrize(("players", "options"), VARIANTS, ids=IDS)
def test_policy_driven_games_replay_exactly_through_the_core(players: int, options: dict) -> None:
    result = run(random_policy(5), players, 60, seed=11, chunk=25, **options)
    assert_matches_core(result)


def _core_states(batch: SushiGoBatch) -> list[State]:
    config = batch.config
    states = []
    for g in range(batch.size):
        rounds = [[[Card(int(c)) for c in hand] for hand in rnd] for rnd in batch.deals[g]]
        states.append(State.from_hands(config, rounds, controllers=[0, 1, 0] if config.dummy else ()))
    return states


@pytest.mark.parametrize(("players", "options"), VARIANTS, ids=IDS)
def test_observations_and_masks_equal_the_core_encoding_every_turn(players: int, options: dict) -> None:
    config = make_config(players, **options)
    batch = SushiGoBatch(config, 6, np.random.default_rng(players))
    states = _core_states(batch)
    while not batch.over:
        obs = batch.observations()
        masks = batch.legal_mask()
        for g, state in enumerate(states):
            for seat in range(players):
                expected = encode_observation(state.observe(seat))
                np.testing.assert_array_equal(obs[g, seat], expected)
                np.testing.assert_array_equal(masks[g, seat], action_mask(state.legal_actions(seat)))
        actions = batch.random_actions()
        assert np.take_along_axis(masks, actions[:, :, None], axis=2).all()
        batch.step(actions)
        for g, state in enumerate(states):
            state.apply_turn([decode_action(int(a)) for a in actions[g]])
    obs = batch.observations()
    for g, state in enumerate(states):
        assert state.is_over()
        for seat in range(players):
            np.testing.assert_array_equal(obs[g, seat], encode_observation(state.observe(seat)))


def test_random_actions_are_uniform_over_the_legal_picks() -> None:
    config = make_config(3)
    batch = SushiGoBatch(config, 1, np.random.default_rng(0))
    batch.tableaux[0, 0, Card.CHOPSTICKS] = 1
    batch.hands[0, 0] = 0
    batch.hands[0, 0, [Card.TEMPURA, Card.WASABI]] = [2, 1]
    big = SushiGoBatch(config, 30000, np.random.default_rng(1))
    big.hands[:] = batch.hands[0]
    big.tableaux[:] = batch.tableaux[0]
    codes = big.random_actions()[:, 0]
    legal = np.flatnonzero(big.legal_mask()[0, 0])
    assert set(np.unique(codes)) == set(legal)
    freq = np.bincount(codes, minlength=legal.max() + 1)[legal] / len(codes)
    assert np.allclose(freq, 1 / len(legal), atol=0.02)


def test_simulate_zero_games_and_chunking() -> None:
    assert len(simulate(4, 0, backend="numpy")) == 0
    result = simulate(3, 10, seed=2, chunk=3, backend="numpy")
    assert len(result) == 10
    assert result.winners.any(axis=1).all()


def test_policy_returning_an_illegal_code_is_refused() -> None:
    with pytest.raises(ValueError, match="illegal"):
        run(lambda obs, mask: np.zeros(mask.shape[:2], dtype=np.int64) + 2547, 3, 2, seed=1)


def test_same_seed_same_games() -> None:
    a = simulate(4, 20, seed=9, backend="numpy")
    b = simulate(4, 20, seed=9, backend="numpy")
    np.testing.assert_array_equal(a.picks, b.picks)
    np.testing.assert_array_equal(a.totals, b.totals)


@pytest.mark.parametrize("backend", BACKENDS)
def test_first_picks_are_uniform_over_the_kinds_in_hand(backend: str) -> None:
    result = simulate(4, 4000, seed=21, backend=backend)  # type: ignore[arg-type]
    hands = result.deals[:, 0, 0]
    picks = result.picks[:, 0, 0, 0, 0]
    kinds = [sorted(set(h.tolist())) for h in hands]
    smallest = np.array([p == k[0] for p, k in zip(picks, kinds)])
    expected = np.mean([1 / len(k) for k in kinds])
    assert abs(smallest.mean() - expected) < 0.02


def test_without_numba_auto_falls_back_to_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    from sushigo.batch import kernel

    monkeypatch.setattr(kernel, "AVAILABLE", False)
    assert not engine.numba_available()
    assert len(simulate(3, 5, seed=1, backend="auto")) == 5
    with pytest.raises(RuntimeError, match="numba"):
        simulate(3, 5, backend="numba")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("players", "options"), VARIANTS, ids=IDS)
def test_same_seed_same_games_for_any_chunk_size_and_backend(backend: str, players: int, options: dict) -> None:
    # each game draws from its own stream of (seed, game index): the NumPy path in one chunk is the
    # reference, and every chunk size on either path must play exactly its games
    seed = 1000 + players
    ref = simulate(players, 24, seed=seed, chunk=24, backend="numpy", **options)
    for chunk in (5, 24):
        got = simulate(players, 24, seed=seed, chunk=chunk, backend=backend, **options)  # type: ignore[arg-type]
        for name in ("deals", "picks", "round_points", "totals", "winners"):
            np.testing.assert_array_equal(getattr(got, name), getattr(ref, name), err_msg=f"{name}, chunk {chunk}")


def test_policy_driven_games_are_dealt_the_same_for_any_chunk_size() -> None:
    first = run(lambda obs, mask: mask.argmax(axis=2), 3, 10, seed=4, chunk=10)
    again = run(lambda obs, mask: mask.argmax(axis=2), 3, 10, seed=4, chunk=3)
    np.testing.assert_array_equal(first.deals, again.deals)
    np.testing.assert_array_equal(first.picks, again.picks)
    other = run(lambda obs, mask: mask.argmax(axis=2), 3, 10, seed=5, chunk=10)
    assert not np.array_equal(first.deals, other.deals)


def test_a_game_does_not_depend_on_the_games_before_it() -> None:
    whole = simulate(4, 9, seed=12, backend="numpy")
    config = make_config(4)
    batch = SushiGoBatch(config, 2, 12, first_game=7)
    while not batch.over:
        batch.step(batch.random_actions())
    np.testing.assert_array_equal(batch.result().picks, whole.picks[7:])
